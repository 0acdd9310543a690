// DNS-rebinding defence: a request's Host must name this server (a loopback name, the configured
// host, or an operator-allowed host), and an Origin, when a browser sends one, must too.

import { isIP } from 'node:net';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** The hostname of a Host header value (`name:port`, `[v6]:port`), lower-cased. */
export function hostnameOf(hostHeader: string): string {
  const v = hostHeader.trim().toLowerCase();
  if (v.startsWith('[')) return v.slice(1, v.indexOf(']') < 0 ? undefined : v.indexOf(']'));
  const colon = v.lastIndexOf(':');
  return colon >= 0 && v.indexOf(':') === colon ? v.slice(0, colon) : v;
}

export interface HostPolicy {
  /** True when the Host header is acceptable. */
  hostAllowed(hostHeader: string | undefined): boolean;
  /** True when the Origin header is absent or names an acceptable host. */
  originAllowed(origin: string | undefined, hostHeader: string | undefined): boolean;
}

/**
 * Builds the policy. `allowedHosts` replaces the default list (loopback names plus the bound host).
 * Bound to a wildcard address with no list, any Host passes (the bearer token, required there, is
 * the defence) and an Origin must match the request's own Host.
 */
export function hostPolicy(boundHost: string, allowedHosts?: readonly string[]): HostPolicy {
  const list = allowedHosts?.map((h) => hostnameOf(h));
  const wildcard = isWildcardHost(boundHost) && list === undefined;
  const allowed = new Set(list ?? [...LOOPBACK_NAMES, hostnameOf(boundHost)]);
  const ok = (name: string) => allowed.has(name) || (list === undefined && isLoopbackHost(name));
  return {
    hostAllowed(hostHeader) {
      if (wildcard) return true;
      if (hostHeader === undefined) return false;
      return ok(hostnameOf(hostHeader));
    },
    originAllowed(origin, hostHeader) {
      if (origin === undefined) return true;
      let name: string;
      try {
        const u = new URL(origin);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
        name = hostnameOf(u.host);
      } catch {
        return false;
      }
      if (wildcard) return hostHeader !== undefined && name === hostnameOf(hostHeader);
      return ok(name);
    },
  };
}
