// The candidate check of file_patch: a patched file must not parse worse than the file did. For
// JSON, JSONC, YAML and TOML documents their parsers count the errors; for source files with a
// grammar, the ERROR nodes of the tree. The candidate is parsed first and, only when it has
// errors, the source too; a candidate with more errors than the source is refused
// (`candidate_parse_error`) at the first error on a line the patch made or changed. SQL files are
// not checked here: the `sql` policy alone decides whether SQL can block a patch (patch-sql.ts), and
// the SQL grammar refuses valid dialects and procedural bodies (MySQL `LIMIT 1, 2`, `DO $$ … $$`).

import type { FileFacts } from '../../../core/capabilities.js';
import { parseDocument } from '../../../core/documents.js';
import { HashlineError } from '../../../core/errors/errors.js';
import * as msg from '../../../core/messages/patch.js';
import { sourceErrorPositions } from '../../../lang/parse/parse-health.js';
import { languageById } from '../../../lang/grammar/registry.js';

const SQL_LANGUAGE = 'sql';

type Pos = { line: number; column: number };

function errorsOf(facts: FileFacts, text: string): Pos[] | null {
  if (facts.documentFormat !== undefined) return parseDocument(facts.documentFormat, text).errors.map((e) => ({ line: e.line, column: e.column }));
  const lang = facts.language === undefined ? undefined : languageById(facts.language);
  if (lang === undefined || !facts.grammarInstalled) return null;
  return sourceErrorPositions(lang, text, Number.MAX_SAFE_INTEGER);
}

/**
 * Throws `candidate_parse_error` when `candidate` (decoded, BOM stripped) parses with more errors
 * than `source`. `sources` (line of the source each candidate line copies, or -1) points at the
 * lines the patch made.
 */
export function checkCandidate(display: string, facts: FileFacts, source: string, candidate: string, sources?: Int32Array): void {
  if (facts.language === SQL_LANGUAGE) return;
  const after = errorsOf(facts, candidate);
  if (after === null || after.length === 0) return;
  const before = errorsOf(facts, source) ?? [];
  if (after.length <= before.length) return;
  const made = (p: Pos) => sources === undefined || (sources[p.line - 1] ?? -1) < 0;
  const known = new Set(before.map((p) => `${p.line}:${p.column}`));
  const first = after.find(made) ?? after.find((p) => !known.has(`${p.line}:${p.column}`)) ?? after[0]!;
  throw new HashlineError('candidate_parse_error', msg.candidateParseError(display, first, before.length, after.length), {
    details: { filePath: display, line: first.line, column: first.column, sourceErrors: before.length, candidateErrors: after.length },
  });
}
