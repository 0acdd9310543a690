// Wire text of structural rewrites (spec/hashline.md, "AST engine"): per-file warnings and notes.

export const NO_MATCHES = 'no matches found';

export function noMatches(pat: string): string {
  return `${NO_MATCHES} for \`${pat}\``;
}

export function patternUnparsable(pat: string, language: string, reason: string): string {
  return `pattern \`${pat}\` does not parse as ${language} (${reason}); write one complete expression, statement or declaration of the language, with $NAME for one node and $$$NAME for zero or more`;
}

export function overlapsSkipped(pat: string, lines: readonly number[]): string {
  const shown = lines.slice(0, 10).join(', ') + (lines.length > 10 ? ', ...' : '');
  return `\`${pat}\`: ${lines.length} match(es) nested in a rewritten match were left unchanged (line ${shown}); call fs_ast_edit again to rewrite them`;
}

export function noGrammar(path: string): string {
  return `\`${path}\` has no grammar for structural rewrites (by its extension); not rewritten`;
}

export function binaryFile(path: string): string {
  return `\`${path}\` is binary; not rewritten`;
}

export function capNote(total: number, max: number): string {
  return `${total} candidate files; only the first ${max} (sorted by path) were rewritten. Narrow \`paths\` or raise \`max_files\` to reach the rest.`;
}

export function changedDuringRewrite(path: string): string {
  return `\`${path}\` changed on disk while it was being rewritten; the rewrite was applied to the new content`;
}

export function diffOmitted(count: number): string {
  return `the diffs of ${count} file(s) were left out to keep the reply small; read those files to see the changes`;
}

export function resultsNotListed(count: number, rewritten: number): string {
  return `${count} more file(s) (${rewritten} of them rewritten) are not listed, to keep the reply within the message limit; narrow \`paths\` to see them, or read a file with \`fs_read\` for its new tag`;
}

export function readBlockedNotRewritten(path: string): string {
  return `\`${path}\` is blocked for reading, and a structural rewrite reads what it matches; not rewritten`;
}
