// The in-memory history (`--history memory`, and the window a durable store keeps in memory): for
// each path (LRU, MAX_PATHS), up to MAX_VERSIONS_PER_PATH versions of its LF-normalized,
// BOM-stripped text, each with its tag and the line numbers that were shown to the agent. Versions
// are keyed by their text, not their tag: two texts with the same 16-bit tag are two versions.
// Pure data: it forgets everything when the process ends.

import { computeTag } from '../text/tag.js';
import type { HistoryLimits, HistoryStatus, HistoryStore, RecordOptions, Version } from './history-store.js';
import { MAX_PATHS, MAX_SNAPSHOT_BYTES, MAX_VERSIONS_PER_PATH } from './limits.js';

export type { HistoryLimits, Version } from './history-store.js';

export const DEFAULT_LIMITS: HistoryLimits = {
  maxPaths: MAX_PATHS,
  maxVersionsPerPath: MAX_VERSIONS_PER_PATH,
  maxSnapshotBytes: MAX_SNAPSHOT_BYTES,
  maxStoredBytes: 0,
};

export interface HistoryState {
  paths: Array<{ path: string; versions: Array<{ text: string; seen: number[] }> }>;
}

export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair: one code point of four bytes
      i++;
    } else n += 3; // the rest of the BMP, and a lone surrogate (written as U+FFFD)
  }
  return n;
}

/** recordableText for a text given by its UTF-8 bytes (encodeText(text)): no NUL, within the size. */
export function recordableBytes(bytes: Uint8Array, limits: HistoryLimits): boolean {
  // (a Buffer view: its indexOf is a native search, ten times the typed array's)
  return bytes.length <= limits.maxSnapshotBytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(0) < 0;
}

/** True when `text` can be a version under `limits` (size limit, no NUL). */
export function recordableText(text: string, limits: HistoryLimits): boolean {
  if (text.includes('\0')) return false;
  // No UTF-16 unit takes more than 3 UTF-8 bytes: count exactly only near the limit.
  return text.length * 3 <= limits.maxSnapshotBytes || utf8Length(text) <= limits.maxSnapshotBytes;
}

export class SnapshotStore implements HistoryStore {
  /** Insertion order is LRU order: the first key is the least recently used. */
  private readonly byPath = new Map<string, Version[]>();
  /** Per path, the path it was renamed from, while that rename is its last change. */
  private readonly renames = new Map<string, string>();
  readonly limits: HistoryLimits;
  private readonly warning: string | undefined;

  constructor(limits: Partial<HistoryLimits> = {}, warning?: string) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.warning = warning;
  }

  status(): HistoryStatus {
    return { backend: 'memory', durable: false, ...(this.warning === undefined ? {} : { warning: this.warning }) };
  }

  keep(): void {
    // nothing outlives the process: there is no log to keep content for
  }

  async load(): Promise<void> {}

  async flush(): Promise<void> {}

  async close(): Promise<void> {}

  private touch(path: string, versions: Version[]): void {
    this.byPath.delete(path);
    this.byPath.set(path, versions);
    while (this.byPath.size > this.limits.maxPaths) {
      const oldest = this.byPath.keys().next().value as string;
      this.byPath.delete(oldest);
    }
  }

  /** True when `text` can be kept (size limit, no NUL). */
  recordable(text: string): boolean {
    return recordableText(text, this.limits);
  }

  /**
   * Records `text` (LF, no BOM) as a version of `path` and returns its tag, or null when the text
   * is too large or holds NUL. `options.tag`, when given, must be computeTag(text) (a caller that
   * has it spares the pass). Recording text that is already a version adds nothing and keeps
   * the order of versions; the path becomes the most recently used. (Who recorded it is for a
   * durable store's log; memory keeps no log.)
   */
  record(path: string, text: string, options: RecordOptions = {}): string | null {
    const tag = options.tag;
    if (!this.recordable(text)) return null;
    const versions = this.byPath.get(path) ?? [];
    const found = versions.find((v) => v.text === text);
    if (!found || options.kind === 'made') this.renames.delete(path);
    if (found) {
      this.touch(path, versions);
      return found.tag;
    }
    const version: Version = { tag: tag ?? computeTag(text), text, seen: new Set() };
    versions.push(version);
    while (versions.length > this.limits.maxVersionsPerPath) versions.shift();
    this.touch(path, versions);
    return version.tag;
  }

  /** Records that `lines` of the version with this exact text were shown. */
  markSeen(path: string, text: string, lines: Iterable<number>): void {
    const v = this.byPath.get(path)?.find((x) => x.text === text);
    if (!v) return;
    for (const n of lines) v.seen.add(n);
  }

  /** Versions of `path`, oldest first. */
  versions(path: string): readonly Version[] {
    return this.byPath.get(path) ?? [];
  }

  /** Every version of `path` with this tag, newest first (more than one only on a collision). */
  withTag(path: string, tag: string): Version[] {
    const want = tag.toUpperCase();
    return this.versions(path).filter((v) => v.tag === want).reverse();
  }

  head(path: string): Version | undefined {
    const vs = this.byPath.get(path);
    return vs?.[vs.length - 1];
  }

  /** Makes the version with this text the head (an explicit restore re-anchors it). */
  reanchor(path: string, text: string): void {
    const vs = this.byPath.get(path);
    if (!vs) return;
    const i = vs.findIndex((v) => v.text === text);
    if (i < 0 || i === vs.length - 1) return;
    const [v] = vs.splice(i, 1);
    vs.push(v!);
    this.touch(path, vs);
  }

  async renamedFrom(path: string): Promise<string | undefined> {
    return this.renames.get(path);
  }

  /** Moves the history of `from` to `to` (a rename). */
  rename(from: string, to: string): void {
    this.renames.delete(from);
    this.renames.set(to, from);
    const vs = this.byPath.get(from);
    if (!vs) return;
    this.byPath.delete(from);
    this.touch(to, vs);
  }

  exportState(): HistoryState {
    return {
      paths: [...this.byPath].map(([path, vs]) => ({
        path,
        versions: vs.map((v) => ({ text: v.text, seen: [...v.seen].sort((a, b) => a - b) })),
      })),
    };
  }

  importState(state: HistoryState): void {
    this.byPath.clear();
    for (const { path, versions } of state.paths) {
      const vs: Version[] = versions
        .filter((v) => typeof v.text === 'string' && this.recordable(v.text))
        .slice(-this.limits.maxVersionsPerPath)
        .map((v) => ({ tag: computeTag(v.text), text: v.text, seen: new Set(v.seen) }));
      if (vs.length > 0) this.touch(path, vs);
    }
  }
}
