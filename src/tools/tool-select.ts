// The selection rule of `--tools` (and `tools` in the configuration): tool names and/or profiles,
// over anything that has a name and a family: the tool definitions (tools/registry.ts) or their
// lazy entries (tools/tool-loaders.ts). The profiles: `hashline` (the hashline family, the
// navigation tools included), `navigation` (the four read-only navigation tools), `boundary` (the
// boundary family), `all`.

import type { Family } from '../core/config/config.js';
import { HashlineError } from '../core/errors/errors.js';

export interface NamedTool {
  readonly name: string;
  readonly family: Family;
}

/** The navigation tools: read-only, in the hashline family, listed alone by the `navigation` profile. */
export const NAVIGATION_TOOLS: readonly string[] = ['fs_list', 'fs_search', 'fs_outline', 'fs_references'];

/** The profiles `--tools` takes besides tool names. */
export const PROFILES = ['hashline', 'navigation', 'boundary', 'all'] as const;
export type Profile = (typeof PROFILES)[number];

function inProfile(profile: Profile, t: NamedTool): boolean {
  if (profile === 'all') return true;
  if (profile === 'navigation') return NAVIGATION_TOOLS.includes(t.name);
  return t.family === profile;
}

/** The tools of `all` named by `selection` (tool names and/or profiles), in `all`'s order; all of them when undefined or empty. */
export function pickTools<T extends NamedTool>(selection: readonly string[] | undefined, all: readonly T[]): T[] {
  if (selection === undefined || selection.length === 0) return [...all];
  const wanted = new Set<string>();
  for (const raw of selection) {
    const name = raw.trim();
    if (name === '') continue;
    if ((PROFILES as readonly string[]).includes(name)) {
      for (const t of all) if (inProfile(name as Profile, t)) wanted.add(t.name);
    } else if (all.some((t) => t.name === name)) {
      wanted.add(name);
    } else {
      throw new HashlineError('invalid_arguments', `unknown tool or profile \`${name}\`; known: ${[...PROFILES, ...all.map((t) => t.name)].join(', ')}`);
    }
  }
  return all.filter((t) => wanted.has(t.name));
}
