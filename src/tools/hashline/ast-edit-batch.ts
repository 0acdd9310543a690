// The two halves of a structural rewrite over many files: planning one file (a verified read,
// the rewrite, the per-file warnings) and committing the changed ones in chunks while planning goes
// on (locks, a re-check of what is on disk, phased atomic writes, history for fs_rollback: a
// chunk's paths looked up together and its versions committed together).

import { lstatSync } from 'node:fs';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { generatedMarker, generatedRefusal } from '../../core/generated.js';
import { binaryFile, changedDuringRewrite, noGrammar, noMatches, overlapsSkipped, patternUnparsable, readBlockedNotRewritten } from '../../core/messages/ast-edit.js';
import { computeTag } from '../../core/text/tag.js';
import { rewriteDiff, type RewriteDiff } from '../../core/text/rewrite-diff.js';
import { encodeRaw, lfText, textShape, type TextShape } from '../../core/text/text-doc.js';
import { syncDirectories, writeAtomicBatch } from '../../io/batch/atomic-batch.js';
import type { Candidate } from '../../io/tree/expand-paths.js';
import { readAdmitted } from '../../io/guard/read-admission.js';
import { readVerifiedBytes, sameStamp, type FileStamp } from '../../io/read/read-batch.js';
import { languageForPath, type LanguageInfo } from '../../lang/grammar/registry.js';
import { anyOpMayMatch, rewriteText, type RewriteOp } from '../../lang/rewrite/rewrite.js';
import { rewriteTextInPool } from '../../lang/rewrite/rewrite-pool.js';
import type { Engine } from '../engine.js';
import { recordMade } from '../record-change.js';

/**
 * Changed files committed together under one withLocks call (the lock manager takes a call's locks
 * one after another; 8 to 128 measured alike, single files slower: their fsyncs do not group).
 */
const WRITE_CHUNK = 32;
/**
 * Commits in flight at once: in effect unbounded, so planning never waits for the disk (the
 * thread pool is the real limit, and planned texts are held until the reply anyway).
 */
const WRITE_CHUNKS_IN_FLIGHT = 1024;

/**
 * A file as read for a rewrite: its shape (`text` is the LF text tags, diffs and history use; `raw`
 * what is rewritten), never split into lines here.
 */
export interface Loaded extends TextShape {
  bytes: Uint8Array;
  stamp: FileStamp;
  mode: number;
  binary: boolean;
}

async function load(engine: Engine, c: Candidate): Promise<Loaded> {
  const { bytes, stamp, mode } = await readVerifiedBytes(engine.guard, c.rp, 'write');
  return { ...textShape(bytes), bytes, stamp, mode, binary: bytes.subarray(0, 8192).includes(0) };
}

/** The rewritten form of a file. */
export interface Rewritten {
  /** Its LF text (tags, diffs, history). */
  text: string;
  /** The exact bytes to write (BOM included). */
  bytes: Uint8Array;
  /** The diff from the text read (computed where the rewrite ran). */
  diff: RewriteDiff;
  /** The tags of the text read and of `text`, when the rewrite computed them. */
  tags?: { readonly before: string; readonly after: string } | undefined;
  /** `bytes` when they are encodeText(`text`) (no BOM, no CR): the history need not encode again. */
  textBytes?: Uint8Array | undefined;
}

export interface Planned {
  candidate: Candidate;
  loaded?: Loaded;
  /** Set when the file is to be written. */
  next?: Rewritten;
  /** The tag of the written text (set once written). */
  tag?: string;
  warnings: string[];
}

/** The rewritten file from its new decoded text `raw` (own line endings, BOM stripped). */
function rewritten(old: TextShape, raw: string, diff: RewriteDiff, tags: Rewritten['tags']): Rewritten {
  const text = lfText(raw);
  const bytes = encodeRaw(raw, old.bom);
  return { text, bytes, diff, ...(tags ? { tags } : {}), ...(!old.bom && text === raw ? { textBytes: bytes } : {}) };
}

/**
 * What the history is told beside a text so it computes neither again: its tag, and its UTF-8
 * bytes when it has them exactly (tools/record-change.ts passes the same).
 */
function recordHints(tag: string | undefined, bytes: Uint8Array | undefined): { tag?: string; bytes?: Uint8Array } {
  return { ...(tag === undefined ? {} : { tag }), ...(bytes === undefined ? {} : { bytes }) };
}

/** The bytes read when they are encodeText of the text read (no BOM, no CR, valid UTF-8). */
const readTextBytes = (l: Loaded) => (!l.bom && l.utf8 && l.text === l.raw ? l.bytes : undefined);

/**
 * Reads one candidate and computes its rewrite; null when there is nothing to report. `parallel`:
 * on a worker thread (worth it for many files; a worker's start costs more than a few parses). A
 * file the read policy refuses is not read: a rewrite reports what it matched (warnings, diff).
 */
export async function plan(engine: Engine, c: Candidate, ops: readonly RewriteOp[], lang: LanguageInfo | undefined, parallel = false): Promise<Planned | null> {
  const warnings: string[] = [];
  if (!lang) return c.explicit ? { candidate: c, warnings: [noGrammar(c.rp.display)] } : null;
  if (!readAdmitted(engine.guard, c.rp)) return c.explicit ? { candidate: c, warnings: [readBlockedNotRewritten(c.rp.display)] } : null;
  let loaded: Loaded;
  try {
    loaded = await load(engine, c);
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return null; // removed meanwhile
    throw e;
  }
  if (loaded.binary) return c.explicit ? { candidate: c, loaded, warnings: [binaryFile(c.rp.display)] } : null;
  const raw = loaded.raw;
  if (!c.explicit && !anyOpMayMatch(raw, ops)) return null;
  const outcome = await (parallel ? rewriteTextInPool : rewriteText)(lang, raw, loaded.eol, ops, c.explicit, c.rp.display);
  for (const r of outcome.reports) {
    if (r.patternError !== undefined) warnings.push(patternUnparsable(r.pat, lang.id, r.patternError));
    else if (r.matches === 0 && c.explicit) warnings.push(noMatches(r.pat));
    if (r.overlapLines.length > 0) warnings.push(overlapsSkipped(r.pat, r.overlapLines));
  }
  if (outcome.raw === raw) return warnings.length > 0 ? { candidate: c, loaded, warnings } : null;
  const marker = generatedMarker(loaded.text);
  if (marker !== null) return { candidate: c, loaded, warnings: [generatedRefusal(c.rp.display, marker)] };
  const diff = outcome.diff ?? rewriteDiff(c.rp.display, raw, outcome.raw, outcome.lineSources);
  return { candidate: c, loaded, next: rewritten(loaded, outcome.raw, diff, outcome.tags), warnings };
}

interface OnDisk {
  stamp: FileStamp;
  owner: { uid: number; gid: number };
}

/** The stamp (as io/read/read-batch.ts takes it) and owner of the file at `real` now, links not followed; null when gone. */
function onDisk(real: string): OnDisk | null {
  try {
    const st = lstatSync(real, { bigint: true });
    return { stamp: { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs }, owner: { uid: Number(st.uid), gid: Number(st.gid) } };
  } catch {
    return null;
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/**
 * Under the chunk's locks: re-plans files changed since they were read, writes, records history,
 * and settles each file's result (`settle`) right after its versions were recorded, while the
 * history still holds them at hand (marking the lines of a diff shown as seen then costs no reload).
 */
async function commitChunk(engine: Engine, chunk: Planned[], ops: readonly RewriteOp[], signal: AbortSignal, written: string[], failed: Array<{ path: string; error: HashlineError }>, dirs: Set<string>, settle: (p: Planned) => void): Promise<void> {
  await engine.locks.withLocks(chunk.map((p) => p.candidate.rp.real), async () => {
    // the owner seen in the check that found the file unchanged (kept as root without another lstat)
    const owners = new Map<Planned, OnDisk['owner']>();
    for (const p of chunk) {
      const now = onDisk(p.candidate.rp.real);
      if (now !== null && sameStamp(now.stamp, p.loaded!.stamp)) {
        owners.set(p, now.owner);
        continue;
      }
      const fresh = await load(engine, p.candidate).catch(() => null);
      if (fresh !== null && sameBytes(fresh.bytes, p.loaded!.bytes)) continue;
      const again = fresh === null ? null : await plan(engine, p.candidate, ops, languageForPath(p.candidate.rp.lexical));
      p.warnings = [changedDuringRewrite(p.candidate.rp.display), ...(again?.warnings ?? [])];
      if (again?.loaded) p.loaded = again.loaded;
      if (again?.next) p.next = again.next;
      else delete p.next;
    }
    if (signal.aborted) throw new HashlineError('aborted', 'aborted');
    const todo = chunk.filter((p) => p.next !== undefined);
    const outcome = await writeAtomicBatch(engine.guard, todo.map((p) => {
        const owner = owners.get(p);
        return { rp: p.candidate.rp, data: p.next!.bytes, mode: p.loaded!.mode, ...(owner ? { owner } : {}) };
      }), { signal, syncDirectories: false });
    for (const d of outcome.directories) dirs.add(d);
    const ok = new Set(outcome.written.map((rp) => rp.real));
    // the chunk's paths looked up together (one read, not a window load per file); its versions
    // and seen lines, queued one after the other, commit together (io/history/history-batch-sql.ts)
    await engine.history.load(todo.filter((p) => ok.has(p.candidate.rp.real)).map((p) => p.candidate.rp.real));
    for (const p of todo) {
      if (!ok.has(p.candidate.rp.real)) continue;
      written.push(p.candidate.rp.display);
      // the replaced text becomes the newest version before the new one, so that fs_rollback ""
      // undoes exactly this rewrite
      const { loaded, next } = { loaded: p.loaded!, next: p.next! };
      engine.history.record(p.candidate.rp.real, loaded.text, recordHints(next.tags?.before, readTextBytes(loaded)));
      engine.history.reanchor(p.candidate.rp.real, loaded.text);
      const hints = recordHints(next.tags?.after, next.textBytes);
      p.tag = recordMade(engine, p.candidate.rp.real, next.text, hints) ?? hints.tag ?? computeTag(next.text);
      settle(p);
    }
    for (const f of outcome.failed) {
      failed.push({ path: f.rp.display, error: f.error });
      const p = todo.find((x) => x.candidate.rp.real === f.rp.real);
      if (p) delete p.next;
    }
    // the files not written: those with warnings are reported all the same
    for (const p of chunk) if (p.next === undefined && p.warnings.length > 0) settle(p);
  }, { signal });
}

/**
 * Takes planned files as they come and commits the changed ones in chunks while planning goes on,
 * so parsing and disk waits overlap. Each chunk takes its own locks (sorted), so chunks never wait
 * on each other while holding locks.
 */
export class Committer {
  readonly written: string[] = [];
  private readonly failed: Array<{ path: string; error: HashlineError }> = [];
  private buffer: Planned[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private error: unknown;
  private closed = false;
  /** Directories to fsync once at the end (after the renames into them). */
  private readonly dirs = new Set<string>();

  constructor(
    private readonly engine: Engine,
    private readonly ops: readonly RewriteOp[],
    private readonly signal: AbortSignal,
    /** Called once for each written file (and each file of a chunk left unwritten with warnings). */
    private readonly settle: (p: Planned) => void = () => undefined,
  ) {}

  private launch(): void {
    const chunk = this.buffer;
    this.buffer = [];
    if (chunk.length === 0) return;
    const p: Promise<void> = commitChunk(this.engine, chunk, this.ops, this.signal, this.written, this.failed, this.dirs, this.settle)
      .catch((e: unknown) => {
        this.error ??= e;
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  async add(p: Planned): Promise<void> {
    if (p.next === undefined || this.closed) return;
    this.buffer.push(p);
    if (this.buffer.length < WRITE_CHUNK) return;
    while (this.inFlight.size >= WRITE_CHUNKS_IN_FLIGHT) await Promise.race(this.inFlight);
    this.launch();
  }

  /** Waits for every chunk; throws the first failure, naming the files that were written. */
  async finish(failure?: unknown): Promise<void> {
    this.closed = true;
    if (failure === undefined) this.launch();
    await Promise.all(this.inFlight);
    if (this.engine.guard.durable) await syncDirectories(this.dirs);
    const written = [...this.written].sort();
    const shown = written.slice(0, 20).join(', ') + (written.length > 20 ? `, and ${written.length - 20} more` : '');
    const already = `${written.length} file(s) were rewritten: ${shown || 'none'}`;
    const cause = failure ?? this.error;
    if (cause !== undefined) {
      const err = toHashlineError(cause);
      if (written.length === 0) throw err;
      throw new HashlineError(err.code, `${err.message}; ${already}`, { details: { ...err.details, written }, cause });
    }
    if (this.failed.length > 0) {
      const first = this.failed[0]!;
      throw new HashlineError(first.error.code, `fs_ast_edit: writing failed for ${this.failed.map((f) => `\`${f.path}\``).join(', ')} (${first.error.message}); ${already}`, {
        details: { failed: this.failed.map((f) => ({ path: f.path, code: f.error.code })), written },
      });
    }
  }
}
