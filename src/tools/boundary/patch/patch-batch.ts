// One file_patch batch: every entry planned, every path resolved and receipt reserved before the
// locks are taken (sorted, de-duplicated); then, under the locks, each file is read once and its
// candidate computed (or taken from its receipt), checked, SQL-validated and, for commits,
// formatted; preview receipts are issued; and the commits land as one all-or-nothing batch
// (io/batch/batch-commit.ts), whose failure part-way restores every file it had written. Receipts are
// settled by the outcome: success consumes them, a failure with nothing changed (or a verified
// rollback) releases them, a changed source or an uncertain rollback invalidates them.

import { createHash } from 'node:crypto';
import { effectiveMethods, intrinsicMethods } from '../../../core/capabilities.js';
import { HashlineError, toHashlineError } from '../../../core/errors/errors.js';
import * as msg from '../../../core/messages/patch.js';
import type { ReceiptBook, Reservation } from '../../../core/receipt-book.js';
import { hasLoneSurrogate } from '../../../core/text/text-codec.js';
import { textShape, type TextShape } from '../../../core/text/text-doc.js';
import { commitBatch, type FileChange } from '../../../io/batch/batch-commit.js';
import { formatForCommit } from '../format-commit.js';
import type { ResolvedPath } from '../../../io/guard/path-guard.js';
import { readAdmitted } from '../../../io/guard/read-admission.js';
import { languageById } from '../../../lang/grammar/registry.js';
import { linkRefusal } from '../boundary-resolve.js';
import { checkChattr } from '../chattr-policy.js';
import type { Engine } from '../../engine.js';
import { inspectFile } from '../file-facts.js';
import { checkCandidate } from './patch-check.js';
import { planEntry, type Chattr, type PatchEntry, type PatchPlan } from './patch-plan.js';
import { buildResults, type FileOutcome, type PatchFileResult, type ReceiptPayload } from './patch-results.js';
import { checkSql, type SqlOutcome } from './patch-sql.js';
import { runAider, runAst, type Candidate, type SourceText } from './patch-strategy.js';
import { recordChangeTags, shapeOfText } from '../../record-change.js';
import { decodedShape } from '../../decoded-texts.js';
import type { InHand } from '../../file-identity-fields.js';
import { PROCESS_SESSION_ID, type CallContext } from '../../tool.js';

/** Files larger than this are not patched (the candidate check parses whole files up to it). */
export const PATCH_MAX_BYTES = 8 * 1024 * 1024;

export interface PatchSeams {
  /** Called before change i of the commit is applied (tests make a write fail there). */
  beforeApply?: (index: number) => Promise<void> | void;
}

interface Item {
  readonly key: string;
  readonly entry: PatchEntry;
  readonly plan: PatchPlan;
  readonly rp: ResolvedPath;
  reservation?: Reservation<ReceiptPayload>;
  /** The source changed since the receipt's preview: the receipt must not be used again. */
  stale?: boolean;
  outcome?: FileOutcome;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

function named(e: unknown, filePath: string): HashlineError {
  const err = toHashlineError(e);
  if (err.details?.filePath !== undefined) return err;
  return new HashlineError(err.code, err.message, {
    details: { filePath, ...(err.details ?? {}) },
    retryable: err.retryable,
    ...(err.suggestedNextCall === undefined ? {} : { suggestedNextCall: err.suggestedNextCall }),
    cause: err,
  });
}

async function resolveItem(engine: Engine, key: string, entry: PatchEntry): Promise<Item> {
  const plan = planEntry(key, entry);
  const rp = await engine.guard.resolve(key, 'write');
  const link = linkRefusal(engine, rp, key);
  if (link) throw link;
  // a patch shows what it matched (diffs, evidence): a file the read policy refuses is not patched
  if (!readAdmitted(engine.guard, rp)) throw new HashlineError('path_blocked', `\`${rp.display}\` may not be read, so it cannot be patched (a patch shows what it matched)`, { details: { path: rp.display } });
  if (entry.chattr) await checkChattr(engine, rp, entry.chattr, engine.configState().settings.chown);
  return { key, entry, plan, rp };
}

function checkHash(display: string, given: string | undefined, actual: string, requireHash: boolean): void {
  if (given === undefined) {
    if (requireHash) {
      throw new HashlineError('stale_or_missing_hash', `\`${display}\` exists: pass its fresh expectedSha256 (from file_hash) to patch it`, { details: { filePath: display, reason: 'missing' } });
    }
    return;
  }
  if (given.toLowerCase() !== actual) {
    throw new HashlineError('stale_or_missing_hash', msg.staleFile(given.toLowerCase(), actual), { details: { filePath: display, reason: 'mismatch', expected: given.toLowerCase(), actual } });
  }
}

/** Reads the file (under its lock) and computes its candidate: the strategy's, or the receipt's. */
async function prepare(engine: Engine, item: Item, call: CallContext): Promise<FileOutcome> {
  const { rp } = item;
  const display = rp.display;
  const settings = engine.configState().settings;
  const insp = await inspectFile(engine, rp, { parse: false });
  const facts = insp.facts;
  if (facts.kind === 'missing') throw new HashlineError('not_found', `\`${display}\` does not exist (file_patch changes existing files; file_write creates them)`, { details: { path: display } });
  if (facts.kind === 'directory') throw new HashlineError('is_directory', `\`${display}\` is a directory`, { details: { path: display } });
  if (insp.bytes === undefined || insp.bytes.length > PATCH_MAX_BYTES) {
    throw new HashlineError('too_large', `\`${display}\` is larger than ${PATCH_MAX_BYTES} bytes, the most file_patch changes`, { details: { path: display, size: insp.size } });
  }
  const bytes = insp.bytes;
  const sourceSha256 = sha256(bytes);
  // the bytes the last change wrote are most often these: their decoding is kept by their hash
  const shape = decodedShape(sourceSha256) ?? textShape(bytes);
  const source: SourceText = { raw: shape.raw, bom: shape.bom, eol: shape.eol };
  let cand: Candidate;
  let chattr: Chattr | undefined = item.entry.chattr;
  let sql: SqlOutcome | undefined;
  if (item.plan.kind === 'receipt') {
    const r = item.reservation!.record;
    if (item.entry.expectedSha256 !== undefined && item.entry.expectedSha256.toLowerCase() !== r.sourceSha256) {
      throw new HashlineError('stale_or_missing_hash', msg.receiptHashMismatch(item.entry.expectedSha256.toLowerCase(), r.sourceSha256), { details: { reason: 'mismatch' } });
    }
    if (sourceSha256 !== r.sourceSha256) {
      item.stale = true;
      throw new HashlineError('stale_or_missing_hash', msg.staleFile(r.sourceSha256, sourceSha256), { details: { reason: 'mismatch', expected: r.sourceSha256, actual: sourceSha256 } });
    }
    if (sha256(r.candidate) !== r.candidateSha256) throw new HashlineError('internal', 'preview receipt candidate integrity check failed');
    if (chattr !== undefined && r.payload.chattr !== undefined && JSON.stringify(chattr) !== JSON.stringify(r.payload.chattr)) {
      throw new HashlineError('patch_strategy_arguments', `the chattr of \`${display}\` differs from the one previewed; preview again`, { details: {} });
    }
    chattr ??= r.payload.chattr;
    sql = r.payload.sql;
    const raw = textShape(r.candidate).raw;
    cand = { raw, bytes: r.candidate, changed: raw !== source.raw || r.candidate.length !== bytes.length, meta: r.payload.meta };
  } else {
    const plan = item.plan;
    checkHash(display, item.entry.expectedSha256, sourceSha256, settings.requireHash);
    const intrinsic = intrinsicMethods(facts);
    const effective = effectiveMethods(intrinsic, settings);
    if (!effective.patch.includes(plan.strategy)) {
      const noGrammar = plan.strategy === 'ast' && facts.language !== undefined && !facts.grammarInstalled && settings.patchStrategies.includes('ast');
      throw new HashlineError(noGrammar ? 'ast_capability_unavailable' : 'patch_strategy_unavailable', msg.strategyUnavailable(display, plan.strategy, effective.patch), {
        details: { strategy: plan.strategy, intrinsic: intrinsic.patch, effective: effective.patch, language: facts.language ?? null },
        suggestedNextCall: 'file_capabilities',
      });
    }
    if (plan.strategy === 'aider_block') cand = runAider(display, source, plan.blocks, effective.aiderMatchers);
    else cand = await runAst(display, languageById(facts.language!)!, source, plan.rules);
    if (cand.changed) checkCandidate(display, facts, source.raw, cand.raw, cand.sources);
    sql = await checkSql(engine, display, item.entry.sql, cand.raw, call.signal);
  }
  const preview = item.plan.kind === 'patch' && item.plan.preview;
  let final = cand.bytes;
  let formatter: string | undefined;
  if (!preview && cand.changed) ({ bytes: final, formatter } = await formatForCommit(engine, rp, cand.bytes, call.signal));
  return { display, rp, preview, bytes, sourceSha256, source, shape, cand, final, chattr, sql, formatter, receiptCommitted: item.plan.kind === 'receipt' };
}

/**
 * The shape of the bytes a commit writes, read off the candidate's text when they are its encoding
 * and decode back to it (no lone surrogate; no BOM character that the bytes would turn into a BOM).
 */
function writtenShape(o: FileOutcome): TextShape | undefined {
  const raw = o.cand.raw;
  if (o.final !== o.cand.bytes || hasLoneSurrogate(raw) || (!o.source.bom && raw.charCodeAt(0) === 0xfeff)) return undefined;
  return shapeOfText(raw, o.source.bom);
}

/** An operating-system failure (EPERM, ENOSPC ...) is `io_error`, whatever raised it. */
function osError(err: HashlineError): HashlineError {
  let c: unknown = err.cause;
  while (c instanceof HashlineError) c = c.cause;
  const errno = (c as NodeJS.ErrnoException | undefined)?.code;
  if (err.code !== 'internal' || typeof errno !== 'string' || !/^E[A-Z]+$/.test(errno)) return err;
  return new HashlineError('io_error', err.message, { details: { ...(err.details ?? {}), errno }, cause: err });
}

function settle(items: readonly Item[], how: 'success' | 'failure', uncertain: boolean): void {
  for (const it of items) {
    const r = it.reservation;
    if (!r) continue;
    if (how === 'success') r.consume();
    else if (uncertain || it.stale) r.invalidate();
    else r.release();
  }
}

export async function runPatchBatch(engine: Engine, files: Readonly<Record<string, PatchEntry>>, call: CallContext, seams: PatchSeams = {}): Promise<{ files: PatchFileResult[]; inHand: Array<InHand | undefined> }> {
  const items: Item[] = [];
  for (const [key, entry] of Object.entries(files)) {
    try {
      items.push(await resolveItem(engine, key, entry));
    } catch (e) {
      throw named(e, key);
    }
  }
  const reals = items.map((i) => i.rp.real);
  if (new Set(reals).size !== reals.length) throw new HashlineError('invalid_arguments', 'a file_patch batch names the same file twice');
  const book = engine.receipts as ReceiptBook<ReceiptPayload>;
  const state = engine.configState();
  const sessionId = call.sessionId ?? PROCESS_SESSION_ID;
  const at = { sessionId, generation: state.generation, identity: state.identity };
  // receipts are reserved for the whole batch, before anything is read
  for (const it of items) {
    if (it.plan.kind !== 'receipt') continue;
    try {
      it.reservation = book.reserve(it.plan.receipt, { ...at, filePath: it.rp.real });
    } catch (e) {
      settle(items, 'failure', false);
      throw named(e, it.rp.display);
    }
  }
  const issued: string[] = [];
  // the replaced files' backups, removed in the thread pool while the results and history are made
  const frees: Promise<void>[] = [];
  try {
    const results = await engine.locks.withLocks(reals, async () => {
      for (const it of items) {
        try {
          it.outcome = await prepare(engine, it, call);
        } catch (e) {
          throw named(e, it.rp.display);
        }
      }
      const outcomes = items.map((i) => i.outcome!);
      const previews = outcomes.filter((o) => o.preview);
      for (const o of previews) {
        try {
          book.checkRoom(sessionId, [o.cand.bytes]);
        } catch (e) {
          throw named(e, o.display);
        }
      }
      if (previews.length > 1) book.checkRoom(sessionId, previews.map((o) => o.cand.bytes));
      for (const it of items) {
        const o = it.outcome!;
        if (!o.preview) continue;
        const payload: ReceiptPayload = { meta: o.cand.meta, ...(o.chattr === undefined ? {} : { chattr: o.chattr }), ...(o.sql === undefined ? {} : { sql: o.sql }) };
        const receipt = book.issue({ ...at, filePath: o.rp.real, sourceSha256: o.sourceSha256, candidateSha256: sha256(o.cand.bytes) }, o.cand.bytes, payload);
        o.receipt = receipt;
        issued.push(receipt.id);
      }
      const writes = outcomes.filter((o) => !o.preview && (o.cand.changed || o.chattr !== undefined)).sort((a, b) => (a.rp.real < b.rp.real ? -1 : 1));
      if (writes.length > 0) {
        const changes: FileChange[] = writes.map((o) => ({
          kind: 'write',
          rp: o.rp,
          bytes: o.final,
          // the file was read under this lock: any other change since is a writer that takes no locks
          expectedSha256: o.sourceSha256,
          // ... and these are its bytes: the batch compares them instead of hashing the file again
          expectedBytes: o.bytes,
          ...(o.chattr?.chmod === undefined ? {} : { mode: o.chattr.chmod }),
          ...(o.chattr?.chown === undefined ? {} : { owner: o.chattr.chown }),
        }));
        const done = await commitBatch(engine.guard, engine.locks, changes, {
          locksHeld: true,
          frees,
          signal: call.signal,
          ...(seams.beforeApply ? { beforeApply: seams.beforeApply } : {}),
          progress: (n, total) => call.progress({ progress: n, total }),
        });
        done.forEach((d, k) => {
          writes[k]!.sha256After = d.sha256After;
          writes[k]!.keyAfter = d.keyAfter;
          const w = writes[k]!;
          // both sides' SHA-256 and the source's decoding are at hand: the history does not redo them
          w.tagAfter = recordChangeTags(engine, w.rp.real, w.bytes, w.final, undefined, { before: { sha256: w.sourceSha256, shape: w.shape }, after: { sha256: d.sha256After, shape: writtenShape(w) } }).after;
        });
      }
      return buildResults(outcomes);
    }, { signal: call.signal });
    await Promise.all(frees);
    settle(items, 'success', false);
    // the bytes each written file now holds, for its tag (tools/file-identity-fields.ts)
    const inHand = items.map(({ outcome: o }) => (o?.sha256After === undefined || o.keyAfter === undefined ? undefined : { real: o.rp.real, bytes: o.final, key: o.keyAfter, tag: o.tagAfter }));
    return { files: results, inHand };
  } catch (e) {
    await Promise.all(frees);
    for (const id of issued) book.discard(id);
    const err = osError(toHashlineError(e));
    settle(items, 'failure', err.code === 'rollback_incomplete');
    throw err;
  }
}
