// The guard lists of several roots, each with its own configuration file (an MCP client's roots):
// each root's lists, made absolute against that root, govern that root's paths. One guard decides
// for all of them, so the lists are added up; where any root has a read list (which replaces allow
// and block for reads), every root's reads use its own read list, or its allow and block lists.

import type { GuardLists } from './config-schema.js';
import { normalizeLexical } from './path-policy.js';

/** `lists` with every entry made absolute against `root` (the root of the file they come from). */
export function listsAt(lists: GuardLists, root: string): GuardLists {
  const abs = (l: readonly string[]) => l.map((p) => normalizeLexical(p, root));
  return {
    allow: abs(lists.allow),
    block: abs(lists.block),
    readAllow: lists.readAllow === undefined ? undefined : abs(lists.readAllow),
    readBlock: lists.readBlock === undefined ? undefined : abs(lists.readBlock),
  };
}

/** The lists of several roots as one guard's lists: what each root's lists refuse stays refused. */
export function combineRootLists(perRoot: readonly GuardLists[]): GuardLists {
  if (perRoot.length === 1) return perRoot[0]!;
  const union = (pick: (l: GuardLists) => readonly string[]) => [...new Set(perRoot.flatMap(pick))];
  const readLists = perRoot.some((l) => l.readAllow !== undefined || l.readBlock !== undefined);
  return {
    allow: union((l) => l.allow),
    block: union((l) => l.block),
    readAllow: readLists ? union((l) => l.readAllow ?? l.allow) : undefined,
    readBlock: readLists ? union((l) => l.readBlock ?? l.block) : undefined,
  };
}
