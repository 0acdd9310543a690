/** Wall ms for `threads` workers (one per core by default) to parse and match all `texts`; also the matches found. */
export function parseFloorMs(texts: readonly string[], pattern: string, capture: string, threads?: number): Promise<{ ms: number; found: number }>;
/** Every file's text under `dir`, in sorted order (dot files skipped). */
export function treeTexts(dir: string): string[];
