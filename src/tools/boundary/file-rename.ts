// file_rename: renames 1-50 regular files as one batch. Every source is checked by the policy for
// changing (deleting) it and every destination for writing it before anything moves; no two
// entries may name the same file (chains and swaps are separate calls); no destination may exist;
// source hashes are required unless [safety] require_hash = false (a supplied one is always
// checked); a file the read policy refuses may only move to a name it refuses too. Renames never replace: a hard link at the destination, then the source unlinked
// (io/batch/batch-steps.ts); missing destination parents are created and removed again on failure.
// A failure part-way moves every file back. Not crash-atomic: see the README.

import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { commitBatch, type FileChange } from '../../io/batch/batch-commit.js';
import { readAdmitted } from '../../io/guard/read-admission.js';
import { statKeyNow } from '../../io/read/read-verified-sync.js';
import { fileRecord } from './boundary-batch.js';
import { resolveEntry } from './boundary-resolve.js';
import { Sha256 } from './boundary-schemas.js';
import { batchStepDelay } from '../batch-seam.js';
import { recordRename } from '../record-change.js';
import { defineTool } from '../tool.js';
import { withTag } from '../file-identity-fields.js';

/** A moved file up to this size is kept in memory by the batch, which hashes it, for its tag. */
const TAG_IN_HAND_BYTES = 256 * 1024;

const Entry = z.strictObject({
  destination: z.string().min(1).meta({ guide: 'the new path, relative to the root; must not exist' }),
  expectedSha256: Sha256.optional(),
});

const Input = z.strictObject({
  files: fileRecord('file_rename', Entry).meta({ guide: '1-50 renames keyed by the current path' }),
});

const Renamed = z.object({
  filePath: z.string(),
  destination: z.string(),
  sha256: z.string(),
  /** The 4-hex tag of the same bytes at the destination (fs_edit's file_hash), when the file still holds them. */
  tag: z.string().optional(),
  createdDirectories: z.array(z.string()).describe('parent directories made for the destination, outermost first'),
});
const Output = z.object({ files: z.array(Renamed) });

export const fileRenameTool = defineTool({
  name: 'file_rename',
  family: 'boundary',
  title: 'Rename files (all or nothing)',
  description: [
    'Renames 1-50 files, all or none, never onto an existing path; each needs expectedSha256.',
    'Example: {"files":{"a.ts":{"destination":"b.ts","expectedSha256":"<sha256>"}}}',
    'stale_or_missing_hash: file_hash, retry.',
  ].join('\n'),
  guide: [
    'Renames 1-50 regular files in one batch; every file moves or none does. A destination must not exist (nothing is ever replaced); missing parent directories are created. Each source needs its fresh `expectedSha256` from file_hash. A file may appear once per batch: do a chain (a→b, b→c) or a swap as separate calls.',
    'Example: {"files": {"src/old.ts": {"destination": "src/lib/new.ts", "expectedSha256": "<64 hex from file_hash>"}}}',
    'On an error nothing has moved (or everything moved was moved back: error.details.restored); error.details.filePath names the entry. After stale_or_missing_hash call file_hash and retry; after already_exists pick another destination.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    const settings = engine.configState().settings;
    const changes: Array<Extract<FileChange, { kind: 'rename' }>> = [];
    // the whole batch's policy first: the sources for changing them, the destinations for writing
    for (const [filePath, entry] of Object.entries(args.files)) {
      const from = await resolveEntry(engine, filePath);
      const to = await resolveEntry(engine, entry.destination, filePath, { destination: entry.destination }, 'allow');
      // a rename must not carry a file the read policy refuses to a name it admits (its content would become readable)
      if (!readAdmitted(engine.guard, from) && readAdmitted(engine.guard, to)) {
        throw new HashlineError('path_blocked', `\`${from.display}\` may not be read, so it may not be renamed to \`${to.display}\`, which may be: pick a destination the read policy refuses too`, {
          details: { filePath, destination: entry.destination },
        });
      }
      changes.push({ kind: 'rename', from, to, expectedSha256: entry.expectedSha256?.toLowerCase(), createParents: true });
    }
    // Under the batch's locks: each source's stat key, the batch, then each destination's stat key.
    // A file the batch read whole whose key did not change across the batch (a link keeps size,
    // mtime, inode and device) held the bytes the batch hashed all along: its tag comes from
    // those bytes, not from a read again. A file changed meanwhile (by a writer that takes no
    // locks) is left to withTag's read, which names it only if it still has the reply's SHA-256.
    const reals = changes.flatMap((c) => [c.from.real, c.to.real]);
    const { outcomes, keys } = await engine.locks.withLocks(
      reals,
      async () => {
        const before = changes.map((c) => statKeyNow(c.from.real));
        const outcomes = await commitBatch(engine.guard, engine.locks, changes, {
          requireHash: settings.requireHash,
          signal: call.signal,
          progress: (done, total) => call.progress({ progress: done, total }),
          beforeApply: batchStepDelay(),
          keepBefore: TAG_IN_HAND_BYTES,
          locksHeld: true,
        });
        const keys = outcomes.map((o, i) => {
          const c = changes[i]!;
          // a file the read policy refuses at its new name gets no tag (withTag's read is refused too)
          if (o.before === undefined || before[i] === undefined || !readAdmitted(engine.guard, c.to)) return undefined;
          return statKeyNow(c.to.real) === before[i] ? before[i] : undefined;
        });
        return { outcomes, keys };
      },
      { signal: call.signal },
    );
    const files = outcomes.map((o, i) => {
      const c = changes[i]!;
      // the file's versions follow it, so fs_rollback works at the new name
      recordRename(engine, c.from.real, c.to.real);
      return { filePath: o.path, destination: o.destination ?? c.to.display, sha256: o.sha256Before!, createdDirectories: o.madeDirs ?? [] };
    });
    const inHand = (_e: unknown, i: number) => {
      const key = keys[i];
      return key === undefined ? undefined : { real: changes[i]!.to.real, bytes: outcomes[i]!.before!, key };
    };
    return { structured: { files: await withTag(engine, files, call.signal, (f) => f.destination, inHand) }, text: '' };
  },
});
