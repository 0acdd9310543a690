// What a path filter of the history's feed matches: a path ending in `/` matches what lies under
// that folder; any other path matches itself and, when it names a folder, what lies under it
// (`src/cli` matches `src/cli/main.ts`, never `src/cli2/x.ts`). Both the SQL of the store and the
// live feed's in-process filter ask here.

/** The folder prefix (ending in `/`) whose paths the filter matches. */
export function scopePrefix(filter: string): string {
  return filter.endsWith('/') ? filter : `${filter}/`;
}

/** The exact path the filter also matches, or undefined for a folder-only filter (ending in `/`). */
export function scopeExact(filter: string): string | undefined {
  return filter.endsWith('/') ? undefined : filter;
}

export function inScope(filter: string, path: string): boolean {
  return path === scopeExact(filter) || path.startsWith(scopePrefix(filter));
}
