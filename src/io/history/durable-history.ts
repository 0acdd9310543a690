// The history kept in a database (SQLite or PostgreSQL, see history-sql.ts), shared by every
// process of the same root and surviving restarts. The tools ask it synchronously while they hold
// a file's lock, so it keeps in memory the window of each path it touched (versions, tags, texts,
// seen lines):
// - a synchronous runner (SQLite) checks the store's change counter (PRAGMA data_version, a few
//   microseconds and a lock of the WAL index) once per synchronous stretch of questions, and
//   reloads a path's window when another process committed meanwhile;
// - an asynchronous runner (PostgreSQL) is asked through `load(paths)`, which the tools await before
//   they look at a path.
// Writes are queued and the writes of one tool call commit together in one transaction by
// `flush()`, which the adapters await before they reply, so a reply never acknowledges what is not
// stored (a SQLite store also commits what is queued before it reloads, and when the process exits).
// A call that changed nothing (a read served over MCP) commits by `flushSoon()` instead, right
// after its reply was handed to the transport, in the same turn of the event loop. When each
// commit runs is history-commits.ts; how a path's window is loaded, history-window.ts; how the windows
// are kept in memory, path-windows.ts.
// Texts are cached by SHA-256 (content never changes under a hash). When the database fails at run
// time, the failure is reported once and the history goes on in memory for the rest of the process.

import { redactText } from '../../core/history/redact-url.js';
import { createHash, randomUUID } from 'node:crypto';
import type {
  HistoryLimits, HistoryOrigin, HistoryQuery, HistoryStatus, HistoryStore, RecordKind, RecordOptions, Version,
} from '../../core/history/history-store.js';
import { recordableBytes, recordableText } from '../../core/history/snapshot-store.js';
import { hashesAsItCame } from '../../core/text/byte-tag.js';
import { computeTag, formatTag } from '../../core/text/tag.js';
import { xxhash32 } from '../../core/text/xxhash32.js';
import { encodeText } from '../../core/text/text-codec.js';
import {
  addSeen, anchorVersion, ensureRoot, logDeletion, recordVersion, renamePath, touchOp, type Op, type RecordFields,
} from './history-sql.js';
import { recentPaths, type GroupWrite } from './history-batch-sql.js';
import { makeQuery } from './history-query-api.js';
import { renamedFrom, type Retention } from './history-queries.js';
import type { Runner } from './runner.js';
import { HistoryCommits } from './history-commits.js';
import { loadWindow, type StoredVersion, type Window } from './history-window.js';
import { PathWindows } from './path-windows.js';
import { TextCache } from './text-cache.js';

export type { Runner } from './runner.js';

export interface DurableOptions {
  /** The root's name in the store. */
  readonly rootName: string;
  readonly limits: HistoryLimits;
  readonly retention: Retention;
  /** Runs once the root is known, before anything else is asked (a migration of older history). */
  readonly onOpen?: (history: DurableHistory) => void;
  /** Called once with a one-line message when the store fails and the history goes on in memory. */
  readonly report?: (message: string) => void;
}

const TEXT_CACHE_CHARS = 64 * 1024 * 1024;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * computeTag(text), hashing `bytes` (encodeText(text), when at hand) as they are when the tag's
 * normalization leaves the text unchanged, which native searches of the bytes tell (no second
 * encoding of the text, no scan of the string).
 */
export function tagOfText(text: string, bytes?: Uint8Array): string {
  return bytes !== undefined && hashesAsItCame(bytes) ? formatTag(xxhash32(bytes)) : computeTag(text);
}

export class DurableHistory implements HistoryStore {
  readonly limits: HistoryLimits;
  readonly query: HistoryQuery;
  private rootId: number | undefined;
  /** The windows of the paths touched, valid at `lastStamp` (synchronous runner). */
  private readonly windows: PathWindows;
  private readonly texts = new TextCache(TEXT_CACHE_CHARS);
  private lastStamp = Number.NaN;
  /** The stamp was checked in this synchronous stretch of code (cleared when it ends: see checkStamp). */
  private stampChecked = false;
  private failure: string | undefined;
  private readonly commits: HistoryCommits;
  /** Commits made by this process (SQLite's data_version leaves them out). */
  localCommits = 0;

  constructor(
    readonly runner: Runner,
    private readonly options: DurableOptions,
  ) {
    this.limits = options.limits;
    this.windows = new PathWindows(this.limits.maxPaths, () => this.failed);
    this.query = makeQuery(this, options.retention);
    this.commits = new HistoryCommits(runner, {
      root: () => (this.sync ? this.root() : this.rootId!),
      failed: () => this.failed,
      fail: (e) => this.fail(e),
      committed: (async) => {
        this.localCommits++;
        // what the database decided (a race with another process) is what the next load sees
        if (async) this.windows.clear();
      },
    });
  }

  get sync(): boolean {
    return this.runner.runSync !== undefined;
  }

  status(): HistoryStatus {
    const backend = this.runner.dialect === 'sqlite' ? 'sqlite' : 'postgres';
    return { backend, durable: this.failure === undefined, location: this.runner.location, ...(this.failure ? { warning: this.failure } : {}) };
  }

  /** The root's id, resolving it (and running the migration hook) on first use. */
  root(): number {
    if (this.rootId !== undefined) return this.rootId;
    if (!this.runner.runSync) throw new Error('the store is not open');
    return this.adoptRoot(this.runner.runSync(() => this.rootOp(), true));
  }

  /** Resolves the root for an asynchronous runner. */
  async open(): Promise<void> {
    if (this.rootId === undefined) this.adoptRoot(await this.runner.run(() => this.rootOp(), true));
  }

  private *rootOp(): Op<{ id: number; created: boolean }> {
    return yield* ensureRoot(this.options.rootName);
  }

  private adoptRoot(r: { id: number; created: boolean }): number {
    this.rootId = r.id;
    this.options.onOpen?.(this);
    return r.id;
  }

  recordable(text: string): boolean {
    return recordableText(text, this.limits);
  }

  private fail(e: unknown): void {
    if (this.failure !== undefined) return;
    const failure = `history store ${this.runner.location} failed (${(e as Error)?.message ?? String(e)}); this process goes on with an in-memory history`;
    this.failure = this.runner.redact ? this.runner.redact(failure) : redactText(failure);
    this.commits.pending.take();
    this.options.report?.(this.failure);
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** The window of `path`, reloaded first when the store changed (synchronous runner). */
  private window(path: string): Window {
    if (this.sync && !this.failed) {
      try {
        this.checkStamp();
        const w = this.windows.get(path);
        if (w) return w;
        // looked up with its group (load) and found in no window: what loadWindow below would find
        if (this.windows.takeAbsent(path)) return this.windows.empty(path);
        const root = this.root();
        // Queued writes of other paths (but a rename) can only push this path down the window, so a load that
        // finds no visible version for it finds what a load after committing them would: the
        // queue is committed first only when it touches this path or the load finds versions.
        // (Many new paths recorded in a row, as an archive's files, then commit together.)
        if (this.commits.pending.touches(path)) this.flushSync();
        let loaded = this.runner.runSync!(() => loadWindow(root, path, this.limits, this.texts), false);
        if (this.commits.pending.size > 0 && (loaded.versions.length > 0 || loaded.rank < this.limits.maxPaths)) {
          this.flushSync();
          loaded = this.runner.runSync!(() => loadWindow(root, path, this.limits, this.texts), false);
        }
        return this.windows.set(path, loaded);
      } catch (e) {
        this.fail(e);
      }
    }
    return this.windows.get(path) ?? this.windows.empty(path);
  }

  /**
   * Synchronous runner: another process committed since the windows were loaded: what this one
   * queued goes first, then they are dropped. Asked once per synchronous stretch of questions (a
   * tool's questions about the files it holds locked, made in one go): within a stretch, a commit
   * of another process is seen at the next, as one made right after the check would be.
   */
  private checkStamp(): void {
    if (this.stampChecked) return;
    this.stampChecked = true;
    queueMicrotask(() => {
      this.stampChecked = false;
    });
    const stamp = this.runner.stamp!();
    if (stamp === this.lastStamp) return;
    this.flushSync();
    this.windows.clear();
    this.lastStamp = stamp;
  }

  /**
   * Synchronous runner: looks up the paths of a group at once (one read of the store's most
   * recently used paths, not one per path, as an archive's files or a rewrite's chunk are recorded):
   * those not among them are in no window, and remembered as such until they are used, written, or
   * another process commits. One path is left to `window`, which reads it when asked.
   */
  private lookUp(paths: readonly string[]): void {
    if (paths.length < 2) return;
    try {
      this.checkStamp();
      const want = paths.filter((p) => !this.windows.has(p) && !this.windows.isAbsent(p) && !this.commits.pending.touches(p));
      if (want.length < 2) return;
      const root = this.root();
      const recent = this.runner.runSync!(() => recentPaths(root, this.limits.maxPaths), false);
      this.windows.markAbsent(want, new Set(recent));
    } catch (e) {
      this.fail(e);
    }
  }

  async load(paths: readonly string[]): Promise<void> {
    if (this.failed) return;
    if (this.sync) {
      this.lookUp(paths);
      return;
    }
    await this.flush();
    try {
      const root = this.rootId!;
      const { limits, texts } = this;
      // one read for the group: the paths in no window (not among the most recently used) are not read one by one
      const loaded = await this.runner.run(function* () {
        const held = paths.length > 1 ? new Set(yield* recentPaths(root, limits.maxPaths)) : new Set(paths);
        const out: [string, Window][] = [];
        for (const p of paths) out.push([p, held.has(p) ? yield* loadWindow(root, p, limits, texts) : { versions: [], rank: limits.maxPaths }]);
        return out;
      }, false);
      for (const [p, w] of loaded) this.windows.set(p, w);
    } catch (e) {
      this.fail(e);
    }
  }

  /** Queues a write (history-commits.ts: the writes of one tool call commit together). */
  private write(paths: readonly string[], op: (root: number) => Op<unknown>, group?: GroupWrite): void {
    this.windows.written(paths);
    this.commits.queue(paths, op, group);
  }

  /** Commits what is queued, now (synchronous runner). */
  flushSync(): void {
    this.commits.flushSync();
  }

  /** Commits what is queued at the end of this turn of the event loop (see HistoryStore.flushSoon). */
  flushSoon(): void {
    this.commits.flushSoon();
  }

  flush(): Promise<void> {
    return this.commits.flush();
  }

  record(path: string, text: string, options: RecordOptions = {}): string | null {
    const bytes = options.bytes;
    if (!(bytes !== undefined ? recordableBytes(bytes, this.limits) : this.recordable(text))) return null;
    const w = this.window(path);
    // With the bytes at hand a known text is found by its SHA-256, and its text compared only then:
    // a text read whole may be a rope of pieces (io/read/line-reader.ts), and comparing it with another
    // text of the same length would flatten it into one large string.
    const sha = bytes !== undefined ? (options.sha256 ?? sha256Hex(bytes)) : undefined;
    // newest first (the versions are distinct texts: the first found is the only one)
    let found: StoredVersion | undefined;
    for (let i = w.versions.length - 1; i >= 0 && found === undefined; i--) {
      const v = w.versions[i]!;
      if ((sha === undefined || v.sha256 === sha) && v.text === text) found = v;
    }
    const kind: RecordKind = options.kind ?? 'seen';
    // recording a known text again keeps its place but makes the path the most recently used, as in memory
    const touch = w.rank > 0;
    if (found && kind === 'seen') {
      if (touch) this.write([path], (root) => touchOp(root, path));
      this.windows.used(path, w);
      return found.tag;
    }
    const tag = found?.tag ?? options.tag ?? tagOfText(text, bytes);
    const data = bytes ?? encodeText(text);
    const sha256 = found?.sha256 ?? sha ?? sha256Hex(data);
    this.texts.set(sha256, text);
    const fields: RecordFields = { path, sha256, tag, kind: 'text', data, op: kind, origin: options.origin, time: Date.now(), limits: this.limits, touch };
    this.write([path], (root) => recordVersion(root, fields), { record: fields });
    this.windows.used(path, w);
    if (!found) {
      w.versions.push({ sha256, tag, text, seen: new Set() });
      while (w.versions.length > this.limits.maxVersionsPerPath) w.versions.shift();
    }
    return tag;
  }

  /** Records a migrated version (op `migrated`) with its seen lines. */
  recordMigrated(path: string, text: string, seen: readonly number[], origin: HistoryOrigin): void {
    if (!this.recordable(text)) return;
    const data = encodeText(text);
    const sha256 = sha256Hex(data);
    const fields: RecordFields = { path, sha256, tag: computeTag(text), kind: 'text', data, op: 'migrated', origin, time: Date.now(), limits: this.limits };
    this.write([path], (root) => recordVersion(root, fields));
    if (seen.length > 0) this.write([path], (root) => addSeen(root, path, sha256, seen));
    this.windows.delete(path);
  }

  markSeen(path: string, text: string, lines: Iterable<number>): void {
    // newest first: the version just recorded is this very string (no comparison of contents)
    const vs = this.window(path).versions;
    let v: StoredVersion | undefined;
    for (let i = vs.length - 1; i >= 0 && v === undefined; i--) if (vs[i]!.text === text) v = vs[i];
    if (!v) return;
    const fresh: number[] = [];
    for (const n of lines) {
      if (!v.seen.has(n)) {
        v.seen.add(n);
        fresh.push(n);
      }
    }
    if (fresh.length > 0) this.write([path], (root) => addSeen(root, path, v.sha256, fresh), { seen: { path, sha256: v.sha256, lines: fresh } });
  }

  versions(path: string): readonly Version[] {
    return this.window(path).versions;
  }

  withTag(path: string, tag: string): Version[] {
    const want = tag.toUpperCase();
    return this.versions(path).filter((v) => v.tag === want).reverse();
  }

  head(path: string): Version | undefined {
    const vs = this.versions(path);
    return vs[vs.length - 1];
  }

  reanchor(path: string, text: string): void {
    const vs = this.window(path).versions;
    // newest first: the text is most often the head already (the versions of a path are distinct
    // texts, so the first found is the only one), and older texts of the same length are compared last
    let i = vs.length - 1;
    while (i >= 0 && vs[i]!.text !== text) i--;
    if (!this.sync) {
      // the database decides: its window may hold versions this process has not loaded
      const sha = i >= 0 ? vs[i]!.sha256 : sha256Hex(encodeText(text));
      this.write([path], (root) => anchorVersion(root, path, sha), { anchor: { path, sha256: sha } });
    }
    if (i < 0 || i === vs.length - 1) return;
    const [v] = vs.splice(i, 1);
    vs.push(v!);
    this.windows.used(path, this.window(path));
    if (this.sync) this.write([path], (root) => anchorVersion(root, path, v!.sha256), { anchor: { path, sha256: v!.sha256 } });
  }

  rename(from: string, to: string, options: { origin?: HistoryOrigin | undefined } = {}): void {
    const w = this.window(from);
    this.windows.delete(from);
    this.windows.set(to, w);
    this.windows.used(to, w);
    const time = Date.now();
    this.write([from, to], (root) => renamePath(root, from, to, options.origin, time));
  }

  async renamedFrom(path: string): Promise<string | undefined> {
    if (this.failed) return undefined;
    await this.flush();
    try {
      const root = this.sync ? this.root() : this.rootId!;
      return await this.runner.run(() => renamedFrom(root, path), false);
    } catch (e) {
      this.fail(e);
      return undefined;
    }
  }

  keep(path: string, bytes: Uint8Array | undefined, options: { origin?: HistoryOrigin | undefined; kind: RecordKind }): void {
    const time = Date.now();
    if (bytes === undefined) {
      this.write([path], (root) => logDeletion(root, path, options.origin, time));
      return;
    }
    if (bytes.length > this.limits.maxStoredBytes) return;
    const fields: RecordFields = { path, sha256: sha256Hex(bytes), tag: null, kind: 'bytes', data: bytes, op: options.kind, origin: options.origin, time, limits: this.limits };
    this.write([path], (root) => recordVersion(root, fields), { record: fields });
  }

  async close(): Promise<void> {
    await this.commits.close();
    await this.runner.close();
  }
}

/** A one-off id for a call's batch. */
export function newBatchId(): string {
  return randomUUID();
}
