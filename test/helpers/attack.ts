// Runs one attack path against the guarded I/O: a read through the guard and a verified open, and
// an atomic write of a marker through the guard. Reports what each attempt did.

import { toHashlineError } from '../../src/core/errors/errors.js';
import { writeAtomic } from '../../src/io/atomic-write.js';
import { readVerified } from '../../src/io/guard/open-verified.js';
import type { Engine } from '../../src/tools/engine.js';

export const MARKER = 'PWNED-BY-ATTACK';

export interface AttackOutcome {
  /** 'ok' when the read went through, else the error code. */
  read: string;
  /** The bytes read, when the read went through. */
  readText?: string;
  write: string;
}

export async function attack(engine: Engine, input: string): Promise<AttackOutcome> {
  const out: AttackOutcome = { read: 'ok', write: 'ok' };
  try {
    const rp = await engine.guard.resolve(input, 'read');
    out.readText = (await readVerified(engine.guard, rp)).bytes.toString('utf8');
  } catch (e) {
    out.read = toHashlineError(e).code;
  }
  try {
    const rp = await engine.guard.resolve(input, 'write');
    await writeAtomic(engine.guard, rp, new TextEncoder().encode(MARKER));
  } catch (e) {
    out.write = toHashlineError(e).code;
  }
  return out;
}
