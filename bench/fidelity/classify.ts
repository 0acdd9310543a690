// The outcome of one edit, judged against the oracle's intended results: exact, merged correctly,
// refused (with or without a clear error), a wrong apply (silent when the tool said it succeeded),
// or a crash (the call failed or the session died).

import { matches, type Expect } from './oracle.js';

export type Outcome = 'exact' | 'merged' | 'refused' | 'wrong' | 'crash' | 'n/a';

export const OUTCOMES: readonly Outcome[] = ['exact', 'merged', 'refused', 'wrong', 'crash', 'n/a'];

export interface Judged {
  readonly outcome: Outcome;
  /** For a refusal: it names what changed and the next call. */
  readonly clear?: boolean;
  /** For a wrong apply: the tool answered success. */
  readonly silent?: boolean;
  readonly note?: string;
}

/**
 * A refusal is clear when it names the next call (a read tool of its family) and what changed (a
 * line number with a word saying what happened to it).
 */
export function clearRefusal(text: string, nextCalls: readonly string[]): boolean {
  const next = nextCalls.some((t) => text.includes(t));
  const what = /\blines? \d+/.test(text) && /\b(changed|deleted|removed|moved|inserted|appears|re-indented)\b/i.test(text);
  return next && what;
}

export function judge(opts: {
  changes: boolean;
  ok: boolean;
  text: string;
  disk: Buffer;
  okExpect: readonly Expect[];
  refusedExpect: readonly Expect[];
  /** Whether a refusal's text is clear (see clearRefusal for the default rule). */
  clear: (text: string) => boolean;
}): Judged {
  if (opts.ok) {
    if (opts.okExpect.some((e) => matches(e, opts.disk))) return { outcome: opts.changes ? 'merged' : 'exact' };
    const unchanged = opts.refusedExpect.some((e) => matches(e, opts.disk));
    return { outcome: 'wrong', silent: true, note: unchanged ? 'answered as applied, file unchanged' : 'answered as applied, file is not an intended result' };
  }
  if (opts.refusedExpect.some((e) => matches(e, opts.disk))) return { outcome: 'refused', clear: opts.clear(opts.text) };
  return { outcome: 'wrong', silent: false, note: 'refused, but the file changed' };
}
