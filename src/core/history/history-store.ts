// The history every tool records into, whatever keeps it: the in-memory window of the seed
// (snapshot-store.ts), a durable store shared by processes (io/history/: SQLite, PostgreSQL), or
// nothing (null-history.ts). Keyed by real path. The synchronous methods are what the merge logic
// and fs_rollback use while they hold a file's lock; `load` brings a path's versions into memory
// first for a store that cannot answer synchronously, and `flush` waits until what was recorded is
// durable (the adapters call it before they reply). Pure types: no I/O here.

/** One version of a file as the tools see it. */
export interface Version {
  readonly tag: string;
  /** LF text, no BOM. */
  readonly text: string;
  /** 1-based line numbers the agent has been shown in this version. */
  readonly seen: Set<number>;
}

export interface HistoryLimits {
  /** Paths whose versions the tools see (least recently changed dropped first). */
  maxPaths: number;
  /** Versions of a path the tools see (oldest dropped first). */
  maxVersionsPerPath: number;
  /** Larger texts are not versions the tools see (record returns null). */
  maxSnapshotBytes: number;
  /** A durable store keeps content up to this size (binary included) for the log; 0 in memory. */
  maxStoredBytes: number;
}

/** Who changed a file, for the log: which tool, which client, which call. */
export interface HistoryOrigin {
  /** Tool name (`fs_edit`, `file_write` ...), `cli`, `console`, `migration`. */
  readonly tool: string;
  /** `mcp-stdio:<id>`, `mcp-http:<session id>`, `http:<token id>`, `cli`, ... */
  readonly client: string;
  /** What the client calls itself (MCP clientInfo.name), when known. */
  readonly clientName?: string | undefined;
  /** One id per tool call: the changes of one call share it. */
  readonly batch: string;
}

/**
 * `seen`: a version found on disk (a read, the text an edit replaced); recorded only when new.
 * `made`: a version a tool produced (write, edit, rewrite, rollback, patch); always logged.
 */
export type RecordKind = 'seen' | 'made';

export interface RecordOptions {
  /** computeTag(text), when the caller has it. */
  readonly tag?: string | undefined;
  /** encodeText(text), when the caller has it (a store that keeps bytes need not encode again). */
  readonly bytes?: Uint8Array | undefined;
  /** The SHA-256 (hex) of `bytes`, when the caller has it (a store that hashes need not hash again). */
  readonly sha256?: string | undefined;
  readonly origin?: HistoryOrigin | undefined;
  readonly kind?: RecordKind;
}

export type HistoryBackend = 'memory' | 'off' | 'sqlite' | 'postgres';

export interface HistoryStatus {
  readonly backend: HistoryBackend;
  /** True when versions outlive the process and are shared by processes of the same root. */
  readonly durable: boolean;
  /** Where: the SQLite file, the PostgreSQL URL without its password; undefined in memory. */
  readonly location?: string | undefined;
  /** Why the store in use is not the one asked for, or what went wrong with it (one line). */
  readonly warning?: string | undefined;
}

export interface HistoryStore {
  readonly limits: HistoryLimits;
  /** True when `text` can be a version the tools see (size limit, no NUL). */
  recordable(text: string): boolean;
  /**
   * Records `text` (LF, no BOM) as a version of `path` and returns its tag, or null when it cannot
   * be kept. A text already among the path's versions keeps its place.
   */
  record(path: string, text: string, options?: RecordOptions): string | null;
  /** Records that `lines` of the version with this exact text were shown. */
  markSeen(path: string, text: string, lines: Iterable<number>): void;
  /** Versions of `path`, oldest first. */
  versions(path: string): readonly Version[];
  /** Every version of `path` with this tag, newest first (more than one only on a collision). */
  withTag(path: string, tag: string): Version[];
  head(path: string): Version | undefined;
  /** Makes the version with this text the newest (an explicit restore re-anchors it). */
  reanchor(path: string, text: string, options?: { origin?: HistoryOrigin | undefined }): void;
  /** Moves the history of `from` to `to` (a rename). */
  rename(from: string, to: string, options?: { origin?: HistoryOrigin | undefined }): void;
  /** The path `path` was renamed from, when that rename is the last change logged at `path` (fs_rollback undoes it). */
  renamedFrom?(path: string): Promise<string | undefined>;
  /**
   * Logs content the tools cannot see as a version (binary, or over the snapshot limit) so that a
   * durable store can give it back; `bytes` undefined logs a deletion. A no-op in memory.
   */
  keep(path: string, bytes: Uint8Array | undefined, options: { origin?: HistoryOrigin | undefined; kind: RecordKind }): void;
  /** Brings the versions of these paths up to date in memory (a no-op for a synchronous store). */
  load(paths: readonly string[]): Promise<void>;
  /** Resolves when everything recorded so far is durable (a no-op for a synchronous store). */
  flush(): Promise<void>;
  /**
   * Commits what is recorded so far once the current turn of the event loop is over (a store that
   * keeps nothing outside the process has no such method). For a call that changed nothing (a
   * read): its reply, handed to the transport in this turn, goes out before the commit. Any later
   * flush, load or query commits the queue first, in order.
   */
  flushSoon?(): void;
  /** Flushes and releases the store. */
  close(): Promise<void>;
  status(): HistoryStatus;
  /** The query API of a durable store (the console, `hashline history`); undefined in memory. */
  readonly query?: HistoryQuery | undefined;
}

/** A row of the log: one change (or first sighting) of one file. */
export interface LogEntry {
  readonly id: number;
  /** The root's name in the store (its real path; in PostgreSQL `host:path`). */
  readonly root: string;
  /** Real path of the file. */
  readonly path: string;
  /** `seen`, `made`, `delete`, `rename`, `migrated`. */
  readonly op: string;
  /** SHA-256 (hex) of the stored content; null for a deletion or rename marker. */
  readonly sha256: string | null;
  /** The 4-hex tag of a text version; null for binary content or a marker. */
  readonly tag: string | null;
  /** Bytes of the stored content. */
  readonly size: number | null;
  /** `text` (the LF text the tools see) or `bytes` (raw file bytes). */
  readonly kind: 'text' | 'bytes' | null;
  readonly tool: string | null;
  readonly client: string | null;
  readonly clientName: string | null;
  readonly batch: string | null;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** The other path of a rename. */
  readonly detail: string | null;
}

export interface FeedQuery {
  /** Entries with an id greater than this (a cursor: the last id seen). */
  readonly after?: number;
  /** Entries with an id smaller than this (paging backwards). */
  readonly before?: number;
  /** At most this many (default 100, at most 1000). */
  readonly limit?: number;
  readonly client?: string;
  readonly tool?: string;
  /** Real path: that file or folder and what lies below it; ending in `/`, only what lies below (path-scope.ts). */
  readonly path?: string;
  /** Entries of every root in the store (PostgreSQL fleets); default: this root only. */
  readonly allRoots?: boolean;
}

export interface StoredContent {
  readonly entry: LogEntry;
  /** The stored bytes: the LF text's bytes for `text`, the file's bytes for `bytes`. */
  readonly bytes: Uint8Array;
}

/** What the console and the CLI ask a durable store. Every method reads; none changes the files. */
export interface HistoryQuery {
  /** Newest first when paging backwards (no `after`), oldest first after a cursor. */
  feed(query?: FeedQuery): Promise<LogEntry[]>;
  /** The log of one file, newest first. */
  timeline(path: string, query?: { before?: number; limit?: number }): Promise<LogEntry[]>;
  /** A log entry with its content, or undefined (unknown id, marker, or content removed by retention). */
  content(id: number): Promise<StoredContent | undefined>;
  /**
   * A number that changes whenever any process committed to the store (SQLite's data_version plus
   * this process's own commits; in PostgreSQL the newest log id): poll it, and query only when it moved.
   */
  changeStamp(): Promise<string>;
  /** Applies retention now (it also runs in the background). Returns the log entries removed. */
  maintain(now?: number): Promise<number>;
  /** Counts for a status page: entries, distinct contents, their bytes, and the store file's bytes. */
  stats(): Promise<{ entries: number; blobs: number; blobBytes: number; fileBytes?: number }>;
}
