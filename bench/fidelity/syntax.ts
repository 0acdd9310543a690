// Whether an edit breaks the syntax of its file, judged by the bench itself: the ERROR nodes of the
// file's grammar before and after the edit (the boundary family's file_patch refuses a candidate
// that parses worse than the file, so a misquote scenario over such an edit could not show where
// the quote was placed).

import type { NapiConfig } from '@ast-grep/napi';
import { languageForPath, parseWith } from '../../src/lang/grammar/registry.js';
import type { Target } from './corpus.js';

const ERROR_RULE = { rule: { kind: 'ERROR' } } as unknown as NapiConfig;

function errors(ext: string, text: string): number | null {
  const info = languageForPath(`x.${ext}`);
  if (!info) return null;
  try {
    return parseWith(info, text).root().findAll(ERROR_RULE).length;
  } catch {
    return null;
  }
}

/** True when `after` (the file with the edit applied) has more syntax errors than the target's file. */
export function parsesWorse(t: Target, after: string): boolean {
  const a = errors(t.file.ext, after);
  if (a === null || a === 0) return false;
  return a > (errors(t.file.ext, `${t.file.lines.join('\n')}\n`) ?? 0);
}
