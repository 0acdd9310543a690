// Wire text of fs_read (spec/hashline.md, "Read Target rules"; the reference's fs/read.rs).
// Every notice and warning a read can produce is built here, so tests pin each string once.

export const MAX_COLUMN = 200;

export function directoryWithoutSymbol(path: string): string {
  return `cannot read directory \`${path}\` without a \`symbol\` filter. When \`path\` is a directory, a \`symbol\` (e.g., a function or struct name) must be provided so the tool searches for matching definitions across all supported source files in that tree. To read entire files, list each file path explicitly in the \`targets\` array with no \`line\` or \`symbol\` fields.`;
}

export function lineRangeFormat(raw: string): string {
  return `line_range must be "start-end" (1-based, inclusive), got: ${raw}`;
}

export function lineRangeOrder(raw: string): string {
  return `line_range must satisfy 1 <= start <= end, got: ${raw}`;
}

export function rangeBeyondEof(start: number, end: number, total: number): string {
  return `[Range ${start}-${end} is beyond end of file (${total} lines total); skipped]`;
}

export function rangesGap(lines: number): string {
  return `[…${lines} lines between ranges elided]`;
}

export function moreLines(remaining: number, next: number, total: number): string {
  return `[${remaining} more lines in file; continue with line_range "${next}-${total}"]`;
}

export function elided(start: number, end: number): string {
  return `[…${end - start + 1} lines elided; re-read with line_range "${start}-${end}"]`;
}

export const ELISION_MARKER = '…';

export const TRUNCATED_NOTICE = `[Some lines were truncated to ${MAX_COLUMN} columns; use line_range to re-read specific lines for the full content]`;

export function blockNotResolved(line: number, path: string): string {
  return `could not resolve a syntactic block starting at line ${line} in \`${path}\`. Possible causes: the line does not begin a valid block (e.g. fn, struct, impl, enum, trait, mod), the line number exceeds the file length, or the line falls inside a string or comment. Try a different line number, a \`line_range\`, or read the whole file instead.`;
}

export function symbolNotFound(name: string, path: string): string {
  return `symbol \`${name}\` not found in \`${path}\`. Verify the symbol name is spelled exactly as defined in source code. If \`${path}\` is a directory, it may contain no files with a supported tree-sitter grammar. Try using \`line\` targeting to read specific sections, or read the whole file to inspect its contents.`;
}

/**
 * hashline's own, after symbolNotFound: the file does not parse, which can hide a definition; where
 * the first syntax error is, where the name occurs in the text, and the read that shows those lines.
 */
export function symbolMaybeHidden(name: string, errorLine: number, occurrences: readonly number[]): string {
  if (occurrences.length === 0) return `The file has a syntax error at line ${errorLine}, which can hide a definition.`;
  const lo = Math.max(1, Math.min(...occurrences) - 2);
  const hi = Math.max(...occurrences) + 20;
  return `The file has a syntax error at line ${errorLine}, which can hide a definition; \`${name}\` occurs at line${occurrences.length > 1 ? 's' : ''} ${occurrences.join(', ')}: read them with \`fs_read\` and line_range "${lo}-${hi}".`;
}

export function noGrammar(path: string): string {
  return `no tree-sitter grammar available for \`${path}\`; use \`line\` targeting or read the whole file instead`;
}

/** hashline's own: the file holds bytes that are not UTF-8 (shown as U+FFFD). */
export function notUtf8(path: string): string {
  return `\`${path}\` is not valid UTF-8: the bytes that are not are shown as U+FFFD (\uFFFD); lines holding them cannot be edited by line, but every other line can, and every byte is kept on write-back`;
}

/** hashline's own: the reply reached its size limit; how to continue. */
export function outputCapped(limit: number, next: number, total: number): string {
  return `[Output stopped at the ${limit}-byte reply limit; continue with line_range "${next}-${total}"]`;
}

/** hashline's own: a single line is larger than what is left of the reply. */
export function lineCapped(line: number, shownChars: number): string {
  return `[Line ${line} was cut after ${shownChars} characters at the reply limit; it is too long to show whole. file_read reads it in parts: lines [${line - 1}, ${line}], then byteOffset as its note says]`;
}

/** file_read: the window stopped after whole lines; where to go on (zero-based, end-exclusive). */
export function fileReadContinue(start: number, end: number): string {
  return `continue with lines [${start}, ${end}]`;
}

/** file_read: the window stopped inside a line (maxBytes or the reply limit); the rest of it is read from `byteOffset`. */
export function fileReadLineCut(line: number, byteOffset: number, end: number): string {
  return `line ${line} was cut after byte ${byteOffset} of it (maxBytes or the reply limit); continue with lines [${line}, ${end}] and byteOffset ${byteOffset}`;
}

/** hashline's own: an earlier target used up the reply; read this one in a separate call. */
export function replyBudgetExhausted(path: string): string {
  return `not read: the reply already holds the most text one call returns; read \`${path}\` in a separate call`;
}

/** hashline's own: a symbol search stopped early at the batch file limit. */
export function symbolSearchCapped(limit: number): string {
  return `[Symbol search stopped after ${limit} matching files; narrow \`path\` to see the rest]`;
}
