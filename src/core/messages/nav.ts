// Wire text of the navigation tools (fs_list, fs_search, fs_outline, fs_references): every notice,
// summary and refusal they produce is built here, so the tests pin each string once.

export function emptyPattern(): string {
  return '`pattern` is empty; give the text (or, with `regex: true`, the regular expression) to search for';
}

export function badRegex(pattern: string, position: number, reason: string): string {
  const shown = pattern.replace(/[\r\n\t]/g, ' ');
  return `invalid regular expression at position ${position}: ${reason}\n  ${shown}\n  ${' '.repeat(position)}^\nFix the pattern (JavaScript RegExp syntax), or pass \`regex: false\` to search for the text as written.`;
}

export function patternUnsupported(pattern: string, position: number, what: string): string {
  const shown = pattern.replace(/[\r\n\t]/g, ' ');
  return `the regular expression uses ${what} at position ${position}, which cannot run in linear time: patterns run in a linear-time engine (no lookahead, lookbehind or back-references)\n  ${shown}\n  ${' '.repeat(position)}^\nRewrite the pattern without it, or pass \`regex: false\` to search for the text as written.`;
}

export function badGlob(glob: string, reason: string): string {
  return `the glob \`${glob}\` is malformed: ${reason}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The last line of a search reply. */
export function searchSummary(hits: number, files: number, searched: number): string {
  return `[${plural(hits, 'matching line')} in ${plural(files, 'file')}; ${plural(searched, 'file')} searched]`;
}

/** The search stopped at max_results: totals counted past the cap, and how to see the rest. */
export function searchCapped(max: number, totalHits: number, totalFiles: number): string {
  return `[Stopped at max_results (${max}); ${plural(totalHits, 'matching line')} in ${plural(totalFiles, 'file')} in all. Narrow \`path\` or \`glob\`, or raise \`max_results\` to see the rest]`;
}

/** A file whose matches were cut by the cap: where its next match is. */
export function moreMatchesInFile(path: string, nextLine: number, total: number): string {
  return `[More matches in \`${path}\` from line ${nextLine}; read on with fs_read line_range "${nextLine}-${total}"]`;
}

export function replyLimitReached(): string {
  return '[The reply reached its size limit; narrow `path` or `glob`, or lower `context`, to see the rest]';
}

/** The hits of more files than the session history keeps are counted, not shown. */
export function fileLimitReached(files: number): string {
  return `[Hits shown from the first ${files} files only (the session history keeps ${files} files, so every tag shown stays editable); narrow \`path\` or \`glob\` to see the rest]`;
}

export function binarySkipped(n: number): string {
  return `[${plural(n, 'binary file')} skipped]`;
}

export function largeSkipped(paths: readonly string[], limitMiB: number): string {
  const shown = paths.slice(0, 5).map((p) => `\`${p}\``).join(', ');
  return `[${plural(paths.length, 'file')} over ${limitMiB} MiB not searched (${shown}${paths.length > 5 ? ', ...' : ''}); search one by giving its path]`;
}

export function listCapped(max: number, more: number, deeper: string | undefined): string {
  const hint = deeper === undefined ? 'narrow `glob`' : `list a deeper \`path\` (e.g. "${deeper}") or narrow \`glob\``;
  return `[Listing stopped at max_entries (${max}); ${plural(more, 'more entry', 'more entries')} not shown: ${hint}]`;
}

/** A directory at the depth limit: how much it holds. */
export function depthLimited(entries: number): string {
  return `(${plural(entries, 'entry', 'entries')}; list it to see them)`;
}

export function linkOutside(): string {
  return '-> (outside the root; not followed)';
}

export function outlineCapped(max: number, files: number, rest: number): string {
  return `[Outline stopped at max_results (${max}) symbols after ${plural(files, 'file')}${rest > 0 ? `; ${plural(rest, 'more file')} not outlined` : ''}: outline a narrower path or raise \`max_results\`]`;
}

export function noOutline(path: string): string {
  return `no symbols found in \`${path}\`: no file there has a grammar with definitions, or none defines anything`;
}

export function referencesCapped(max: number, files: number, rest: number): string {
  return `[Stopped at max_results (${max}) references after ${plural(files, 'file')}${rest > 0 ? `; ${plural(rest, 'more file')} holding the name not searched` : ''}: narrow \`path\` or \`kind\`, or raise \`max_results\`]`;
}

export function referencesSummary(hits: number, files: number, searched: number): string {
  return `[${plural(hits, 'reference')} in ${plural(files, 'file')}; ${plural(searched, 'file')} holding the name parsed]`;
}

/** Which of a file's shown lines define, call, import or otherwise use the name. */
export function referenceRoles(roles: ReadonlyMap<string, readonly number[]>): string {
  const parts: string[] = [];
  for (const [role, lines] of roles) if (lines.length > 0) parts.push(`${role} ${lines.join(', ')}`);
  return `[${parts.join('; ')}]`;
}

export function invalidName(name: string): string {
  return `\`name\` must be one identifier (letters, digits, \`_\`, \`$\`), got ${JSON.stringify(name)}`;
}
