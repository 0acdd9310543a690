// The selection rule of `--tools` (tool names and/or family names), over anything that has a name
// and a family: the tool definitions (tools/registry.ts) or their lazy entries (tools/tool-loaders.ts).

import { FAMILIES, type Family } from '../core/config/config.js';
import { HashlineError } from '../core/errors/errors.js';

export interface NamedTool {
  readonly name: string;
  readonly family: Family;
}

/** The tools of `all` named by `selection` (tool names and/or family names), in `all`'s order; all of them when undefined or empty. */
export function pickTools<T extends NamedTool>(selection: readonly string[] | undefined, all: readonly T[]): T[] {
  if (selection === undefined || selection.length === 0) return [...all];
  const wanted = new Set<string>();
  for (const raw of selection) {
    const name = raw.trim();
    if (name === '') continue;
    if ((FAMILIES as readonly string[]).includes(name)) {
      for (const t of all) if (t.family === (name as Family)) wanted.add(t.name);
    } else if (all.some((t) => t.name === name)) {
      wanted.add(name);
    } else {
      throw new HashlineError('invalid_arguments', `unknown tool or family \`${name}\`; known: ${[...FAMILIES, ...all.map((t) => t.name)].join(', ')}`);
    }
  }
  return all.filter((t) => wanted.has(t.name));
}
