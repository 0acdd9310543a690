// Wire text of fs_rollback (spec/hashline.md, "Rollback history data model").

import { MAX_VERSIONS_PER_PATH } from '../history/limits.js';

function list(tags: readonly string[]): string {
  return `[${tags.map((t) => `"${t}"`).join(', ')}]`;
}

export function noHistory(path: string): string {
  return `no rollback history for \`${path}\`; the file must be read or written during this session before rollback is available`;
}

export function versionNotFound(path: string, hash: string, known: readonly string[]): string {
  return `version \`${hash}\` not found in rollback history for \`${path}\`; known versions: ${list(known)}`;
}

export function alreadyAtVersion(path: string, hash: string): string {
  return `\`${path}\` is already at version \`${hash}\`; nothing to restore`;
}

export function noPreviousVersion(path: string, retained: number = MAX_VERSIONS_PER_PATH): string {
  return `no previous version for \`${path}\`; the current version is the oldest in the rollback window (${retained} versions retained)`;
}

export function modifiedExternallyError(path: string, disk: string, known: readonly string[]): string {
  return `\`${path}\` was modified externally (disk hash \`${disk}\` not in session history); cannot determine the previous session version automatically. Pass an explicit hash to roll back to. Known versions: ${list(known)}`;
}

export function modifiedExternallyWarning(path: string, disk: string, last: string): string {
  return `\`${path}\` was modified externally since the last session write (disk \`${disk}\` differs from last session state \`${last}\`); external changes will be replaced`;
}

export function recreatedFrom(path: string, hash: string): string {
  return `\`${path}\` no longer exists on disk; it will be recreated from version \`${hash}\``;
}

export function recreatedLastState(path: string, hash: string): string {
  return `\`${path}\` no longer exists on disk; restoring to last session state (\`${hash}\`)`;
}

export function restorePermissionDenied(path: string, reason: string): string {
  return `restore permission denied for \`${path}\`: ${reason}`;
}
