// Reads the durable history for the console with the read policy applied: every entry is shown as
// a view (display paths, who, when, and whether its content may be shown), counts of changed lines
// and diffs are computed only for paths the read policy admits, and binary content is never diffed.
// The predecessor of a version is the entry before it in the same path's log (a deletion marker
// counts as an empty file). Texts are cached by SHA-256 (a content address never changes).

import type { HistoryQuery, LogEntry, StoredContent } from '../../core/history/history-store.js';
import { HashlineError } from '../../core/errors/errors.js';
import { contentRefused, noStoredContent, notThisRoot } from '../../core/messages/console.js';
import { decodeBytes } from '../../core/text/text-codec.js';
import type { Engine } from '../../tools/engine.js';
import { countChanges, diffVersions, type LineCounts, type VersionDiff } from './version-diff.js';

export interface EntryView {
  readonly id: number;
  readonly time: number;
  readonly op: string;
  /** Display path (relative to the root when inside it). */
  readonly path: string;
  /** The other path of a rename, displayed. */
  readonly detail: string | null;
  readonly tool: string | null;
  readonly client: string | null;
  readonly clientName: string | null;
  readonly batch: string | null;
  readonly tag: string | null;
  readonly size: number | null;
  readonly kind: 'text' | 'bytes' | null;
  /** False when the read policy refuses the path: no content, no diff, no counts. */
  readonly readable: boolean;
  /** Lines added and removed against the predecessor; null when not known or not shown. */
  readonly added: number | null;
  readonly removed: number | null;
  /**
   * For a `seen` version: true when it is the path's first entry (a first sighting), false when a
   * version came before it, so the file changed outside hashline (another process, an editor)
   * and `tool` only saw the result. Null for the other ops.
   */
  readonly firstSeen: boolean | null;
}

export interface DiffReply {
  readonly entry: EntryView;
  readonly predecessor: EntryView | null;
  /** True when either side is binary (or kept as bytes, over the text limit): no diff. */
  readonly binary: boolean;
  readonly diff: VersionDiff | null;
}

/** How much text one request may diff for its line counts (characters); the rest get null. */
export const COUNT_BUDGET_CHARS = 64 * 1024 * 1024;
/** Texts larger than this get no line counts. */
const MAX_COUNT_CHARS = 2 * 1024 * 1024;
const TEXT_CACHE_CHARS = 64 * 1024 * 1024;

const isMarker = (e: LogEntry) => e.sha256 === null;

export class VersionReader {
  private readonly texts = new Map<string, string>();
  private textChars = 0;
  private readonly counts = new Map<string, LineCounts | null>();

  constructor(
    private readonly engine: Engine,
    readonly query: HistoryQuery,
  ) {}

  readable(e: LogEntry): boolean {
    return this.engine.guard.admitsReal(e.path, 'read');
  }

  view(e: LogEntry, counts: LineCounts | null = null, firstSeen: boolean | null = null): EntryView {
    const g = this.engine.guard;
    // a read-blocked version shows neither its tag nor its size: a 4-hex tag of a short secret (a
    // PIN) is a dictionary away from the secret
    const readable = this.readable(e);
    return {
      id: e.id, time: e.time, op: e.op, path: g.display(e.path), detail: e.detail === null ? null : g.display(e.detail),
      tool: e.tool, client: e.client, clientName: e.clientName, batch: e.batch,
      tag: readable ? e.tag : null, size: readable ? e.size : null, kind: e.kind,
      readable, added: counts?.added ?? null, removed: counts?.removed ?? null,
      firstSeen: e.op === 'seen' ? firstSeen : null,
    };
  }

  /** The entry before `e` in its path's log, or null. */
  async predecessor(e: LogEntry): Promise<LogEntry | null> {
    return (await this.query.timeline(e.path, { before: e.id, limit: 1 }))[0] ?? null;
  }

  /** The LF text of a text version (undefined for a marker, binary content or content gone). */
  async text(e: LogEntry): Promise<string | undefined> {
    if (e.kind !== 'text' || e.sha256 === null) return undefined;
    const cached = this.texts.get(e.sha256);
    if (cached !== undefined) return cached;
    const found = await this.query.content(e.id);
    if (found === undefined) return undefined;
    const text = decodeBytes(found.bytes).text;
    this.remember(e.sha256, text);
    return text;
  }

  private remember(sha: string, text: string): void {
    if (text.length > TEXT_CACHE_CHARS / 4) return;
    this.texts.set(sha, text);
    this.textChars += text.length;
    for (const [k, v] of this.texts) {
      if (this.textChars <= TEXT_CACHE_CHARS) break;
      this.texts.delete(k);
      this.textChars -= v.length;
    }
  }

  /**
   * Views of `entries` with line counts; `predecessors` gives each entry's predecessor where the
   * caller knows it (a timeline page), the others are looked up.
   */
  async views(entries: readonly LogEntry[], predecessors: ReadonlyMap<number, LogEntry | null> = new Map()): Promise<EntryView[]> {
    const budget = { chars: COUNT_BUDGET_CHARS };
    const out: EntryView[] = [];
    for (const e of entries) {
      const counted = this.counted(e);
      // a `seen` version's predecessor tells a first sighting from a change made outside hashline
      const pred = counted || e.op === 'seen' ? (predecessors.has(e.id) ? predecessors.get(e.id)! : await this.predecessor(e)) : null;
      out.push(this.view(e, counted ? await this.countsOf(e, pred, budget) : null, e.op === 'seen' ? pred === null : null));
    }
    return out;
  }

  /** Whether `e` gets line counts: nothing derived from the content of a read-blocked path, not even how many lines changed. */
  private counted(e: LogEntry): boolean {
    return this.readable(e) && e.kind === 'text' && e.op !== 'rename' && e.op !== 'migrated' && (e.size ?? 0) <= MAX_COUNT_CHARS * 3;
  }

  private async countsOf(e: LogEntry, pred: LogEntry | null, budget: { chars: number }): Promise<LineCounts | null> {
    // a first sighting is not a change; a version after nothing or a deletion was made whole
    if (pred === null && e.op === 'seen') return null;
    let before = '';
    if (pred !== null && !isMarker(pred)) {
      if (pred.sha256 === e.sha256) return { added: 0, removed: 0 };
      if (pred.kind !== 'text') return null;
      const key = `${pred.sha256}>${e.sha256}`;
      if (this.counts.has(key)) return this.counts.get(key)!;
      const old = await this.text(pred);
      if (old === undefined) return null;
      before = old;
    }
    const after = await this.text(e);
    if (after === undefined || before.length > MAX_COUNT_CHARS || after.length > MAX_COUNT_CHARS) return null;
    if (budget.chars < before.length + after.length) return null;
    budget.chars -= before.length + after.length;
    const counts = countChanges(before, after);
    if (pred !== null && !isMarker(pred)) {
      if (this.counts.size > 10_000) this.counts.delete(this.counts.keys().next().value as string);
      this.counts.set(`${pred.sha256}>${e.sha256}`, counts);
    }
    return counts;
  }

  /**
   * The stored content of version `id` of this root (a PostgreSQL store may hold other roots, whose
   * versions are not this console's to show or restore).
   */
  async stored(id: number): Promise<StoredContent> {
    const found = await this.query.content(id);
    if (found === undefined) throw new HashlineError('not_found', noStoredContent(id));
    const mine = (await this.query.timeline(found.entry.path, { before: id + 1, limit: 1 }))[0];
    if (mine?.id !== id) throw new HashlineError('forbidden', notThisRoot(id));
    return found;
  }

  /** The diff of version `id` against its predecessor; refused for a read-blocked path. */
  async diff(id: number): Promise<DiffReply> {
    const found = await this.stored(id);
    const e = found.entry;
    if (!this.readable(e)) throw new HashlineError('path_blocked', contentRefused(this.engine.guard.display(e.path)));
    const pred = e.op === 'rename' ? null : await this.predecessor(e);
    const predView = pred === null ? null : this.view(pred, null, pred.op === 'seen' ? (await this.predecessor(pred)) === null : null);
    const binary = e.kind !== 'text' || (pred !== null && !isMarker(pred) && pred.kind !== 'text');
    if (binary) return { entry: this.view(e, null, pred === null), predecessor: predView, binary: true, diff: null };
    const after = decodeBytes(found.bytes).text;
    // a predecessor whose content retention removed is no base for a diff: shown as none
    const old = pred === null || isMarker(pred) ? '' : await this.text(pred);
    const diff = diffVersions(old ?? '', after);
    const counts = diff.tooComplex ? null : { added: diff.added, removed: diff.removed };
    return { entry: this.view(e, counts, pred === null), predecessor: old === undefined ? null : predView, binary: false, diff };
  }
}
