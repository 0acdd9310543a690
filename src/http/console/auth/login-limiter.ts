// Console logins are rate-limited per client: each address (an IPv6 address by its /64, the block
// one machine usually holds) may try 5 times a minute; past that, every login attempt from it is
// refused with 429 until its window has passed, a right token included, so guessing cannot go on
// at speed. An attempt is counted when it arrives, before its token is read and checked, so a
// burst sent at once is limited like a sequence (50 at once: 5 checked, 45 refused). A right token
// gives its attempt back. There is no limit across addresses: one address never locks out another.

import net from 'node:net';

export interface LimiterOptions {
  perAddress: number;
  windowMs: number;
}

export const LOGIN_LIMITS: LimiterOptions = { perAddress: 5, windowMs: 60_000 };

/** Clients remembered at most (the quietest are forgotten first). */
const MAX_CLIENTS = 10_000;

/** The key an address is counted under: IPv4 as is, IPv6 by its first 64 bits. */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(address)) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export class LoginLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly options: LimiterOptions = LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts an attempt from `address` before its token is checked. 0: it is counted and may go on;
   * otherwise the seconds until the address may try again (nothing counted).
   */
  take(address: string): number {
    const key = clientKey(address);
    const at = this.now();
    const mine = (this.attempts.get(key) ?? []).filter((t) => at - t < this.options.windowMs);
    if (mine.length >= this.options.perAddress) {
      this.attempts.set(key, mine);
      return Math.max(1, Math.ceil((mine[mine.length - this.options.perAddress]! + this.options.windowMs - at) / 1000));
    }
    mine.push(at);
    // re-inserted last: the map's first keys are the quietest clients
    this.attempts.delete(key);
    this.attempts.set(key, mine);
    if (this.attempts.size > MAX_CLIENTS) this.attempts.delete(this.attempts.keys().next().value as string);
    return 0;
  }

  /** A right token gives back the attempt `take` counted. */
  refund(address: string): void {
    const mine = this.attempts.get(clientKey(address));
    mine?.pop();
  }
}
