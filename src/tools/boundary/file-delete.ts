// file_delete: deletes 1-50 regular files as one batch, after a reference check. Each file needs
// the policy for changing it and a fresh hash (unless [safety] require_hash = false; a supplied one
// is always checked). With every file locked and its hash checked, the files under the root that
// import a file of the batch are found (lang/references/reference-scan.ts; importers the batch deletes too do
// not count): known importers refuse the batch (`file_referenced`, every importer with its line),
// and so does a scan that cannot be proven complete (`reference_scan_incomplete`), unless the
// entry says `forceReferences: true`; the reply then names the importers it overrode and says
// `referenceVerificationBypassed` when the scan was not proven. With AST reads excluded by
// [files.read] modes, deleting a file a grammar covers is `reference_verification_failed` unless
// forced. Deleted text goes to the history (fs_rollback recreates the file); parent directories
// the deletion leaves empty are removed.

import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { unscannedRefusal } from '../../core/messages/write.js';
import { commitBatch, type FileChange } from '../../io/batch/batch-commit.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { scanReferences, type Importer, type ScanReport } from '../../lang/references/reference-scan.js';
import { languageForPath } from '../../lang/grammar/registry.js';
import { fileRecord } from './boundary-batch.js';
import { resolveEntry } from './boundary-resolve.js';
import { Sha256 } from './boundary-schemas.js';
import { batchStepDelay } from '../batch-seam.js';
import { recordChange } from '../record-change.js';
import { defineTool } from '../tool.js';

const Entry = z.strictObject({
  expectedSha256: Sha256.optional(),
  forceReferences: z.boolean().optional().meta({ guide: 'delete even when other files import this one, or when that cannot be proven either way' }),
});

const Input = z.strictObject({
  files: fileRecord('file_delete', Entry).meta({ guide: '1-50 files keyed by path, relative to the root' }),
});

const ImporterShape = z.object({ filePath: z.string(), line: z.number() });
const Deleted = z.object({
  filePath: z.string(),
  sha256: z.string(),
  referencesChecked: z.boolean().describe('false when AST reads are excluded and the file has no grammar: no scan was needed or possible'),
  forcedImporters: z.array(ImporterShape).describe('known importers that forceReferences overrode'),
  referenceVerificationBypassed: z.boolean().describe('forceReferences overrode a scan that could not be proven complete'),
  notScanned: z.object({ readBlocked: z.number() }).optional().describe('files that could import this one but the read policy refuses: not scanned'),
  inHistory: z.boolean().describe('the deleted text is in the history: fs_rollback can recreate the file'),
});
const Output = z.object({ files: z.array(Deleted), removedDirectories: z.array(z.string()) });

/** Lines of the refusal that list importers, at most this many (all of them are in details). */
const MESSAGE_IMPORTERS = 50;

interface Planned {
  rp: ResolvedPath;
  force: boolean;
  /** The file has a grammar (it is AST-capable). */
  capable: boolean;
}

function refuseReferenced(blocked: Array<{ rp: ResolvedPath; importers: Importer[] }>): HashlineError {
  let budget = MESSAGE_IMPORTERS;
  const parts = blocked.map(({ rp, importers }) => {
    const shown = importers.slice(0, Math.max(0, budget)).map((i) => `${i.filePath}:${i.line}`);
    budget -= shown.length;
    const more = importers.length - shown.length;
    return `\`${rp.display}\` is imported by ${shown.join(', ')}${more > 0 ? ` and ${more} more (error.details.references)` : ''}`;
  });
  return new HashlineError('file_referenced', `${parts.join('; ')}. Delete or change the importers first (or in the same batch), or pass forceReferences: true for a reviewed override`, {
    details: { filePath: blocked[0]!.rp.display, references: blocked.map(({ rp, importers }) => ({ filePath: rp.display, importers })) },
  });
}

function refuseUnprovable(unproven: Array<{ rp: ResolvedPath; reasons: string[] }>): HashlineError {
  const parts = unproven.map(({ rp, reasons }) => `\`${rp.display}\`: ${reasons.slice(0, 5).join('; ')}${reasons.length > 5 ? `; and ${reasons.length - 5} more` : ''}`);
  return new HashlineError('reference_scan_incomplete', `the reference scan cannot be proven complete for ${parts.join(' | ')}. Check for importers yourself (fs_search), then pass forceReferences: true`, {
    details: { filePath: unproven[0]!.rp.display, unprovable: unproven.map(({ rp, reasons }) => ({ filePath: rp.display, reasons })) },
  });
}

function refuseUnscanned(unscanned: Array<{ rp: ResolvedPath; readBlocked: number }>): HashlineError {
  const first = unscanned[0]!;
  return new HashlineError('reference_verification_failed', unscannedRefusal(unscanned.map((u) => ({ path: u.rp.display, readBlocked: u.readBlocked }))), {
    details: { filePath: first.rp.display, notScanned: unscanned.map((u) => ({ filePath: u.rp.display, readBlocked: u.readBlocked })) },
  });
}

/** The veto of the batch, run under its locks after the hashes were checked. */
function referenceVeto(planned: readonly Planned[], report: ScanReport | null): void {
  const blocked: Array<{ rp: ResolvedPath; importers: Importer[] }> = [];
  const unscanned: Array<{ rp: ResolvedPath; readBlocked: number }> = [];
  const unproven: Array<{ rp: ResolvedPath; reasons: string[] }> = [];
  for (const p of planned) {
    const r = report?.targets.get(p.rp.real);
    if (!r || p.force) continue;
    if (r.importers.length > 0) blocked.push({ rp: p.rp, importers: r.importers });
    else if (r.readBlocked > 0) unscanned.push({ rp: p.rp, readBlocked: r.readBlocked });
    else if (r.unprovable.length > 0) unproven.push({ rp: p.rp, reasons: r.unprovable });
  }
  if (blocked.length > 0) throw refuseReferenced(blocked);
  // a scan that could not read every file that may import a target is no proof
  if (unscanned.length > 0) throw refuseUnscanned(unscanned);
  if (unproven.length > 0) throw refuseUnprovable(unproven);
}

export const fileDeleteTool = defineTool({
  name: 'file_delete',
  family: 'boundary',
  title: 'Delete files (all or nothing)',
  description: [
    'Deletes 1-50 files, all or none, each with expectedSha256; refused (file_referenced) while other files import one, unless forceReferences.',
    'Example: {"files":{"a.ts":{"expectedSha256":"<sha256>"}}}',
    'stale_or_missing_hash: file_hash, retry.',
  ].join('\n'),
  guide: [
    'Deletes 1-50 regular files in one batch; every file goes or none does. Each file needs its fresh `expectedSha256` from file_hash. Files under the root that import one of them (TS/JS, Python, Rust, Go, CSS/SCSS) refuse the delete with each importer and its line; importers deleted in the same batch do not count. Parent directories left empty are removed; fs_rollback can recreate a deleted text file.',
    'Example: {"files": {"src/old-util.ts": {"expectedSha256": "<64 hex from file_hash>"}}}',
    'After file_referenced change or delete the importers first, or repeat with "forceReferences": true if breaking them is intended; reference_scan_incomplete means importers could not be ruled out: check with fs_search, then force. After stale_or_missing_hash call file_hash and retry.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    const settings = engine.configState().settings;
    const astReads = settings.readModes.includes('ast');
    const planned: Planned[] = [];
    const changes: FileChange[] = [];
    for (const [filePath, entry] of Object.entries(args.files)) {
      const rp = await resolveEntry(engine, filePath);
      const p: Planned = { rp, force: entry.forceReferences === true, capable: languageForPath(rp.real) !== undefined };
      if (!astReads && p.capable && !p.force) {
        throw new HashlineError('reference_verification_failed', `\`${rp.display}\` has a grammar, so its importers must be checked, but [files.read] modes excludes ast reads. Restore AST reads, or pass forceReferences: true for a reviewed override`, {
          details: { filePath: rp.display, readModes: [...settings.readModes] },
        });
      }
      planned.push(p);
      changes.push({ kind: 'delete', rp, expectedSha256: args.files[filePath]!.expectedSha256?.toLowerCase(), removeEmptyParents: true });
    }
    let report: ScanReport | null = null;
    const outcomes = await commitBatch(engine.guard, engine.locks, changes, {
      requireHash: settings.requireHash,
      signal: call.signal,
      keepBefore: engine.history.limits.maxSnapshotBytes * 3,
      progress: (done, total) => call.progress({ progress: done, total }),
      beforeApply: batchStepDelay(),
      afterPreflight: async () => {
        if (!astReads) return;
        report = await scanReferences(engine.guard, planned.map((p) => p.rp.real), {
          deleting: new Set(planned.map((p) => p.rp.real)),
          signal: call.signal,
        });
        referenceVeto(planned, report);
      },
    });
    const removed = new Set<string>();
    const files = outcomes.map((o, i) => {
      const p = planned[i]!;
      const r = (report as ScanReport | null)?.targets.get(p.rp.real);
      const inHistory = recordChange(engine, p.rp.real, o.before, undefined) !== null;
      for (const d of o.removedDirs ?? []) removed.add(d);
      return {
        filePath: o.path,
        sha256: o.sha256Before!,
        referencesChecked: r !== undefined,
        forcedImporters: p.force ? (r?.importers ?? []) : [],
        referenceVerificationBypassed: p.force && (r === undefined ? p.capable : r.unprovable.length > 0 || r.readBlocked > 0),
        ...(r !== undefined && r.readBlocked > 0 ? { notScanned: { readBlocked: r.readBlocked } } : {}),
        inHistory,
      };
    });
    return { structured: { files, removedDirectories: [...removed].sort() }, text: '' };
  },
});
