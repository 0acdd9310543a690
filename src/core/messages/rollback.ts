// Wire text of fs_rollback (spec/hashline.md, "Rollback history data model").

import { MAX_VERSIONS_PER_PATH } from '../history/limits.js';

/** The known tags, or (null: a read-blocked file, whose tags are never shown) a note saying so. */
function list(tags: readonly string[] | null): string {
  return tags === null ? '(not shown: the file is read-blocked)' : `[${tags.map((t) => `"${t}"`).join(', ')}]`;
}

/** A tag in a message, or a stand-in for a read-blocked file's. */
const shown = (tag: string | null, what: string) => (tag === null ? what : `\`${tag}\``);

export function noHistory(path: string): string {
  return `no rollback history for \`${path}\`; the file must be read or written during this session before rollback is available`;
}

export function versionNotFound(path: string, hash: string, known: readonly string[] | null): string {
  return `version \`${hash}\` not found in rollback history for \`${path}\`; known versions: ${list(known)}`;
}

export function alreadyAtVersion(path: string, hash: string): string {
  return `\`${path}\` is already at version \`${hash}\`; nothing to restore`;
}

export function noPreviousVersion(path: string, retained: number = MAX_VERSIONS_PER_PATH): string {
  return `no previous version for \`${path}\`; the current version is the oldest in the rollback window (${retained} versions retained)`;
}

export function modifiedExternallyError(path: string, disk: string | null, known: readonly string[] | null): string {
  return `\`${path}\` was modified externally (disk hash ${shown(disk, 'of the file')} not in session history); cannot determine the previous session version automatically. Pass an explicit hash to roll back to. Known versions: ${list(known)}`;
}

export function modifiedExternallyWarning(path: string, disk: string | null, last: string | null): string {
  const states = disk === null || last === null ? '' : ` (disk \`${disk}\` differs from last session state \`${last}\`)`;
  return `\`${path}\` was modified externally since the last session write${states}; external changes will be replaced`;
}

export function recreatedFrom(path: string, hash: string): string {
  return `\`${path}\` no longer exists on disk; it will be recreated from version \`${hash}\``;
}

export function recreatedLastState(path: string, hash: string | null): string {
  return `\`${path}\` no longer exists on disk; restoring to last session state${hash === null ? '' : ` (\`${hash}\`)`}`;
}

export function restorePermissionDenied(path: string, reason: string): string {
  return `restore permission denied for \`${path}\`: ${reason}`;
}

/** Said by a restore of a read-blocked file, whose reply carries no tag. */
export const TAGS_HIDDEN = 'the file is read-blocked: its tags are not shown (file_hash and replaced_hash are empty)';

/** Said by a rollback that undid a rename: the file went back to its old name. */
export function renameUndone(from: string, to: string): string {
  return `the last change of \`${from}\` was its rename from \`${to}\`: the rename is undone, the file is back at \`${to}\``;
}

/** A rename that cannot be undone: its old name is taken. */
export function renameNotUndone(from: string, to: string): string {
  return `the last change of \`${from}\` was its rename from \`${to}\`, but \`${to}\` exists now: nothing was moved (move or delete it first)`;
}
