// Wire text of file_patch (spec/boundary.md, seed 004): preview receipts, AST rule counts, aider
// placements, candidate checks and formatters. Every face says these words.

export const receiptUnknown = 'Preview receipt is unknown or has already been used';
export const receiptExpired = 'Preview receipt has expired; preview the patch again';
export const receiptWrongFile = 'Preview receipt does not belong to this file';
export const receiptWrongSession = 'Preview receipt belongs to a different MCP session';
export const receiptStaleConfig = 'Preview receipt is stale because configuration changed';
export const receiptInUse = 'Preview receipt is already being committed by another call; wait for its outcome';

export function receiptLimit(what: string): string {
  return `Preview receipt storage limit exceeded (${what}); commit or let outstanding previews expire, or narrow the patch`;
}

export function staleFile(expected: string, found: string): string {
  return `Stale file context: expected ${expected}, found ${found}`;
}

export function receiptHashMismatch(given: string, source: string): string {
  return `expectedSha256 ${given} is not the source hash ${source} the preview receipt was made from`;
}

export function astMatchCount(matches: number, expected: number): string {
  return `AST rule matched ${matches} nodes; expected ${expected}`;
}

export const astCardinality =
  'an AST rule of file_patch rewrites exactly one node: narrow the pattern to one node and leave expectedMatches at 1 (fs_ast_edit rewrites every match)';

const lines = (s: { startLine: number; endLine: number }) => (s.startLine === s.endLine ? `line ${s.startLine}` : `lines ${s.startLine}-${s.endLine}`);

export function strategyRequired(path: string): string {
  return `patchStrategy is required for \`${path}\`: choose "ast" (astRules) or "aider_block" (aiderBlocks); file_capabilities lists what the file supports. There is no default and no fallback`;
}

export function strategyUnavailable(path: string, strategy: string, effective: readonly string[]): string {
  return `patchStrategy '${strategy}' is not available for \`${path}\`; available strategies: ${effective.join(', ') || 'none'}`;
}

export function strategyArguments(path: string, strategy: string): string {
  return strategy === 'ast'
    ? `patchStrategy 'ast' for \`${path}\` takes astRules (at least one) and no aiderBlocks`
    : `patchStrategy 'aider_block' for \`${path}\` takes aiderBlocks (at least one) and no astRules`;
}

export function receiptArguments(path: string): string {
  return `a previewReceipt commit of \`${path}\` takes no patchStrategy, astRules, aiderBlocks, preview or sql: the receipt carries what was previewed`;
}

export function aiderAmbiguous(path: string, op: number, method: string, spans: ReadonlyArray<{ startLine: number; endLine: number }>): string {
  return `aider block ${op} of \`${path}\` matches ${spans.length === 20 ? 'at least 20' : spans.length} regions with the ${method} matcher (${spans.map(lines).join(', ')}); nothing was changed. Quote more of the surrounding lines so the search occurs once`;
}

export function aiderNoMatch(path: string, op: number, closest: { span: { startLine: number; endLine: number }; similarity: number } | undefined, threshold: number): string {
  const near = closest ? `; the closest region is ${lines(closest.span)} (similarity ${closest.similarity.toFixed(2)}, ${closest.similarity >= threshold ? 'not clearly better than another' : `below ${threshold}`})` : '';
  return `aider block ${op} of \`${path}\` matches nowhere${near}; nothing was changed. Read the region again (file_read) and quote it exactly`;
}

export function aiderDisabled(path: string, op: number, matcher: string, enabled: readonly string[]): string {
  return `aider block ${op} of \`${path}\` is placed only by the '${matcher}' matcher, which the configuration disables (enabled: ${enabled.join(', ') || 'none'}); nothing was changed. Quote the region exactly`;
}

export function aiderEmpty(path: string, op: number): string {
  return `aider block ${op} of \`${path}\` has an empty search and an empty replace: nothing to do`;
}

export function candidateParseError(path: string, at: { line: number; column: number }, before: number, after: number): string {
  return `the patched \`${path}\` would not parse: ${after} syntax error${after === 1 ? '' : 's'} where the file has ${before}, the first new one at line ${at.line}, column ${at.column}; nothing was changed`;
}

export function formatterNotFound(program: string): string {
  return `the program \`${program}\` was not found (formatters are never downloaded: install it, or change [format] in the configuration)`;
}

/** Where a formatter may live: said by the refusal, file_capabilities and `--help`. */
export const FORMATTER_PLACE = 'a formatter runs only from outside every root and writable allow-list entry (never node_modules/.bin of the project, never through npx or the like), with a scrubbed environment';

export function formatterRefused(program: string, why: 'launcher' | 'writable'): string {
  const what = why === 'launcher' ? `\`${program}\` starts programs found in the project` : `\`${program}\` lies where a tool can write it`;
  return `${what}; ${FORMATTER_PLACE}`;
}
