// Whether the read policy admits a path that was resolved for writing. Write tools (fs_edit,
// fs_write, fs_rollback) may change a file the read policy refuses, but what they return about it
// must not show its content: no diff, no context lines. Both halves are asked, as a read's
// `resolve` asks them: the path as named (lexical lists) and the file it leads to (real lists).

import type { PathGuard, ResolvedPath } from './path-guard.js';

export function readAdmitted(guard: PathGuard, rp: ResolvedPath): boolean {
  if (!guard.admitsReal(rp.real, 'read')) return false;
  try {
    guard.checkLexical(rp.lexical, 'read');
    return true;
  } catch {
    return false;
  }
}
