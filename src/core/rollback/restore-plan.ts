// Which version fs_rollback restores (spec/hashline.md, "Rollback history data model"):
//
// | hash    | disk    | result                                                                  |
// |---------|---------|-------------------------------------------------------------------------|
// | h       | exists  | restore h; warn when the disk text is not a session version; error when |
// |         |         | h is unknown or already on disk                                         |
// | h       | deleted | recreate h, with a warning                                              |
// | ""      | exists  | the version before the disk's; error when the disk is not in history or |
// |         |         | is the oldest                                                           |
// | ""      | deleted | the newest version, with a warning                                      |
//
// Versions are matched by text, never by tag alone (two texts may share a 16-bit tag).

import { HashlineError } from '../errors/errors.js';
import * as msg from '../messages/rollback.js';

export interface RestoreVersion {
  readonly tag: string;
  readonly text: string;
}

export interface RestoreRequest {
  /** Display path, for messages. */
  readonly path: string;
  /** The requested tag; "" means the version before the current one. */
  readonly hash: string;
  /** Session versions of the file, oldest first. */
  readonly versions: readonly RestoreVersion[];
  /** The disk's LF text and tag, or null when the file does not exist. */
  readonly disk: { readonly text: string; readonly tag: string } | null;
  /** The read policy refuses the file: no message or detail names a tag of it the caller did not give. */
  readonly hidden?: boolean | undefined;
}

export interface RestorePlan {
  readonly target: RestoreVersion;
  /** The disk's tag before the restore; "" when the file did not exist. */
  readonly replacedHash: string;
  readonly warning?: string;
  /** True for an explicit hash: the restored version becomes the newest. */
  readonly reanchor: boolean;
}

function knownTags(versions: readonly RestoreVersion[]): string[] {
  return [...new Set(versions.map((v) => v.tag))];
}

export function planRestore(req: RestoreRequest): RestorePlan {
  const { path, versions, disk } = req;
  const hidden = req.hidden === true;
  const known = hidden ? null : knownTags(versions);
  const tagOf = (tag: string) => (hidden ? null : tag);
  const head = versions[versions.length - 1];
  if (head === undefined) throw new HashlineError('history_missing', msg.noHistory(path), { details: { path } });
  const hash = req.hash.trim().replace(/^.*#/, '').toUpperCase();
  if (hash === '') {
    if (disk === null) return { target: head, replacedHash: '', warning: msg.recreatedLastState(path, tagOf(head.tag)), reanchor: false };
    let at = -1;
    for (let i = versions.length - 1; i >= 0; i--) {
      if (versions[i]!.text === disk.text) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      throw new HashlineError('modified_externally', msg.modifiedExternallyError(path, tagOf(disk.tag), known), {
        details: { path, ...(known === null ? {} : { disk: disk.tag, known }) },
      });
    }
    if (at === 0) throw new HashlineError('no_previous_version', msg.noPreviousVersion(path, versions.length), { details: { path } });
    return { target: versions[at - 1]!, replacedHash: disk.tag, reanchor: false };
  }
  const candidates = versions.filter((v) => v.tag === hash);
  const target = candidates[candidates.length - 1];
  if (target === undefined) {
    throw new HashlineError('version_not_found', msg.versionNotFound(path, hash, known), {
      details: { path, hash, ...(known === null ? {} : { known }) },
    });
  }
  if (disk === null) return { target, replacedHash: '', warning: msg.recreatedFrom(path, hash), reanchor: true };
  if (candidates.some((v) => v.text === disk.text)) {
    throw new HashlineError('already_at_version', msg.alreadyAtVersion(path, hash), { details: { path, hash } });
  }
  const external = !versions.some((v) => v.text === disk.text);
  return {
    target,
    replacedHash: disk.tag,
    reanchor: true,
    ...(external ? { warning: msg.modifiedExternallyWarning(path, tagOf(disk.tag), tagOf(head.tag)) } : {}),
  };
}
