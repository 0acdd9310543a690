// The extraction rules of PUT /v1/fs/tar: CPython tarfile's `data` filter, stricter where the spec
// is. Pure decisions over the archive's member list plus a lookup of links already on disk, so a
// hostile archive is refused as a whole before a single member is written.
//
// - member paths resolve lexically inside the root (absolute names and `..` escapes refused);
// - `.` must be a directory;
// - symlinks are kept, but an absolute target or one that resolves outside is refused (symlinks
//   resolve from their own directory, hard links from the archive root, both through the links
//   already seen in the archive and on disk);
// - a hard link to a file the read policy refuses is refused unless its own name is refused too
//   (a hard link has no target to resolve at read time: its name would read the blocked file);
// - a symlink target may climb (`..`) only before its first name: `dd/..` is refused, because a
//   later link at `dd` (in this archive or a later one) would change where it leads. With every
//   `..` first, a target climbs through the real parents of its own directory (which no member can
//   swap: they hold the link) and then only descends, by names that are directories or links
//   that resolve inside, so no later member can make an admitted link lead out;
// - no member is written through a symbolic link (archive or disk);
// - character and block devices and fifos are refused;
// - modes follow CPython's `data` filter: masked with 0o755, a file keeps its execute bits only
//   when the owner's is set and always gets u+rw; a directory always gets u+rwx; the extraction
//   root's own mode is never changed (a `.` member with mode 0 would lock the owner out);
// - member and byte caps.

import { HashlineError } from '../../core/errors/errors.js';
import type { Scope } from '../../core/config/path-policy.js';
import {
  absoluteLinkTarget,
  archiveTooManyBytes,
  archiveTooManyMembers,
  deviceMember,
  linkClimbsBack,
  linkTargetOutside,
  linkTargetUnreadable,
  memberDotNotDirectory,
  memberEscapes,
  memberThroughLink,
  memberUnsupported,
} from '../../core/messages/http.js';

export interface TarMember {
  path: string;
  type: string;
  linkpath?: string | undefined;
  size: number;
}

export interface TarCaps {
  maxMembers: number;
  maxBytes: number;
}

/** The target of a symbolic link already on disk at `rel` (relative to the root), or null. */
export type DiskLinkLookup = (rel: string) => string | null;

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const DEVICE_TYPES = new Set(['CharacterDevice', 'BlockDevice', 'FIFO']);
const MAX_HOPS = 40;

export const MODE_MASK = 0o755;

/**
 * The mode a file or directory member is given (CPython's `data` filter): masked with 0o755; a
 * file loses every execute bit unless the owner's is set, and gets u+rw; a directory gets u+rwx,
 * so nothing in the archive can make a tree its owner cannot enter or write.
 */
export function memberMode(kind: 'file' | 'directory', archived: number | undefined): number {
  if (kind === 'directory') return ((archived ?? 0o755) & MODE_MASK) | 0o700;
  let mode = (archived ?? 0o644) & MODE_MASK;
  if ((mode & 0o100) === 0) mode &= ~0o111;
  return mode | 0o600;
}

function refuse(message: string, member: string): HashlineError {
  return new HashlineError('tar_member_refused', message, { details: { member } });
}

/** Lexical components of `p` relative to the root, or null when it climbs above it. */
export function lexicalParts(p: string): string[] | null {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out;
}

/** True when `target` has a `..` after a name (`a/..`, `../a/../b`): it climbs out of a component it entered. */
export function climbsBack(target: string): boolean {
  let named = false;
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') named = true;
    else if (named) return true;
  }
  return false;
}

/** Tracks the links an archive creates, over those on disk, and resolves paths through them. */
export class LinkView {
  private readonly links = new Map<string, string>();
  private readonly shadowed = new Set<string>();

  constructor(private readonly disk: DiskLinkLookup) {}

  /** The link target at `rel`, or null when `rel` is not a link (as far as the archive and disk say). */
  linkAt(rel: string): string | null {
    const own = this.links.get(rel);
    if (own !== undefined) return own;
    if (this.shadowed.has(rel)) return null;
    return this.disk(rel);
  }

  record(rel: string, linkTarget: string | null): void {
    if (linkTarget === null) {
      this.links.delete(rel);
      this.shadowed.add(rel);
    } else this.links.set(rel, linkTarget);
  }

  /** The first proper prefix of `parts` that is a link, or null. */
  linkPrefix(parts: readonly string[]): string | null {
    for (let i = 1; i < parts.length; i++) {
      const rel = parts.slice(0, i).join('/');
      if (this.linkAt(rel) !== null) return rel;
    }
    return null;
  }

  /** Resolves `target` from the directory `fromParts`, following links; null when it leaves the root. */
  resolve(fromParts: readonly string[], target: string): string[] | null {
    if (target.startsWith('/')) return null;
    const done = [...fromParts];
    let pending = target.split('/');
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift()!;
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (done.length === 0) return null;
        done.pop();
        continue;
      }
      done.push(part);
      const link = this.linkAt(done.join('/'));
      if (link !== null) {
        if (++hops > MAX_HOPS || link.startsWith('/')) return null;
        done.pop();
        pending = [...link.split('/'), ...pending];
      }
    }
    return done;
  }
}

/** Checks members one by one, in archive order; `add` throws the first refusal. */
export class ArchiveCheck {
  private readonly view: LinkView;
  count = 0;
  bytes = 0;

  constructor(
    private readonly caps: TarCaps,
    disk: DiskLinkLookup,
    /** A coded refusal when the guard's policy for `scope` refuses the path (relative to the root), else null. */
    private readonly admits: (rel: string, scope: Scope) => HashlineError | null,
  ) {
    this.view = new LinkView(disk);
  }

  add(m: TarMember): void {
    const { caps, view } = this;
    if (++this.count > caps.maxMembers) throw new HashlineError('too_large', archiveTooManyMembers(caps.maxMembers));
    this.bytes += m.size;
    if (this.bytes > caps.maxBytes) throw new HashlineError('too_large', archiveTooManyBytes(caps.maxBytes));
    const name = m.path;
    if (name.startsWith('/')) throw refuse(memberEscapes(name), name);
    const parts = lexicalParts(name);
    if (parts === null) throw refuse(memberEscapes(name), name);
    if (DEVICE_TYPES.has(m.type)) throw refuse(deviceMember(name), name);
    const isDir = m.type === 'Directory';
    if (!isDir && !FILE_TYPES.has(m.type) && m.type !== 'SymbolicLink' && m.type !== 'Link') {
      throw refuse(memberUnsupported(name, m.type), name);
    }
    if (parts.length === 0 && !isDir) throw refuse(memberDotNotDirectory(name), name);
    const through = view.linkPrefix(parts);
    if (through !== null) throw refuse(memberThroughLink(name, through), name);
    const rel = parts.join('/');
    const denied = this.admits(rel, 'write');
    if (denied) throw denied;
    if (m.type === 'SymbolicLink' || m.type === 'Link') {
      const target = m.linkpath ?? '';
      if (target.startsWith('/')) throw refuse(absoluteLinkTarget(name, target), name);
      const from = m.type === 'SymbolicLink' ? parts.slice(0, -1) : [];
      const resolved = view.resolve(from, target);
      if (resolved === null || this.admits(resolved.join('/'), 'write') !== null) throw refuse(linkTargetOutside(name, target), name);
      if (m.type === 'SymbolicLink' && climbsBack(target)) throw refuse(linkClimbsBack(name, target), name);
      if (m.type === 'Link' && this.admits(resolved.join('/'), 'read') !== null && this.admits(rel, 'read') === null) {
        throw refuse(linkTargetUnreadable(name, target), name);
      }
      if (m.type === 'Link') {
        const targetParts = lexicalParts(target);
        const via = targetParts === null ? null : view.linkPrefix([...targetParts, '']);
        if (via !== null) throw refuse(memberThroughLink(name, via), name);
      }
    }
    if (parts.length > 0) view.record(rel, m.type === 'SymbolicLink' ? (m.linkpath ?? '') : null);
  }
}
