// file_chattr: changes the mode (0..0o777; setuid, setgid and sticky refused) and owner (its
// current owner only, unless [files.chattr] chown = "any") of 1-50 existing files, under the write
// policy, as one batch. The old mode and owner are journaled, the hash and identity (dev+ino) are
// checked again, and the change goes through that verified open handle (fchown, fchmod); a
// failure part-way puts every attribute already changed back.

import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { commitBatch, type FileChange } from '../../io/batch/batch-commit.js';
import { fileRecord } from './boundary-batch.js';
import { resolveEntry } from './boundary-resolve.js';
import { Chattr, Sha256 } from './boundary-schemas.js';
import { batchStepDelay } from '../batch-seam.js';
import { checkChattr } from './chattr-policy.js';
import { defineTool } from '../tool.js';
import { withTag } from '../file-identity-fields.js';

const Entry = z.strictObject({
  chattr: Chattr.meta({ guide: 'the mode and/or owner to give the file' }),
  expectedSha256: Sha256.optional(),
});

const Input = z.strictObject({
  files: fileRecord('file_chattr', Entry).meta({ guide: '1-50 files keyed by path, relative to the root' }),
});

const Attributes = z.object({ chmod: z.number(), chown: z.object({ uid: z.number(), gid: z.number() }) });
const Changed = z.object({
  filePath: z.string(),
  sha256: z.string(),
  /** The 4-hex tag of the same bytes (fs_edit's file_hash), when the file still holds them. */
  tag: z.string().optional(),
  chattr: Attributes,
  previous: Attributes,
});
const Output = z.object({ files: z.array(Changed) });

const shown = (a: { mode: number; uid: number; gid: number }) => ({ chmod: a.mode, chown: { uid: a.uid, gid: a.gid } });

export const fileChattrTool = defineTool({
  name: 'file_chattr',
  family: 'boundary',
  title: 'Change file mode (all or nothing)',
  description: [
    'Sets chmod (0..0o777, a number) and/or owner of 1-50 files, all or none, each with expectedSha256; setuid, setgid, sticky refused.',
    'Example: {"files":{"run.sh":{"chattr":{"chmod":493},"expectedSha256":"<sha256>"}}}',
    'stale_or_missing_hash: file_hash, retry.',
  ].join('\n'),
  guide: [
    'Sets the permission bits (chmod 0..0o777, as a number) and/or owner of 1-50 existing files in one batch; every file changes or none does. setuid, setgid and sticky bits are refused; chown may only name the current owner unless the operator allows more. Each file needs its fresh `expectedSha256` from file_hash.',
    'Example: {"files": {"scripts/build.sh": {"chattr": {"chmod": 493}, "expectedSha256": "<64 hex from file_hash>"}}}  (493 = 0o755)',
    'On an error nothing has changed (or everything changed was put back: error.details.restored); error.details.filePath names the file. After stale_or_missing_hash call file_hash and retry.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const settings = engine.configState().settings;
    const changes: FileChange[] = [];
    for (const [filePath, entry] of Object.entries(args.files)) {
      if (entry.chattr.chmod === undefined && entry.chattr.chown === undefined) {
        throw new HashlineError('invalid_arguments', `the chattr of \`${filePath}\` names neither chmod nor chown`, { details: { filePath } });
      }
      const rp = await resolveEntry(engine, filePath);
      await checkChattr(engine, rp, entry.chattr, settings.chown);
      changes.push({ kind: 'chattr', rp, mode: entry.chattr.chmod, owner: entry.chattr.chown, expectedSha256: entry.expectedSha256?.toLowerCase() });
    }
    const outcomes = await commitBatch(engine.guard, engine.locks, changes, {
      requireHash: settings.requireHash,
      signal: call.signal,
      progress: (done, total) => call.progress({ progress: done, total }),
      beforeApply: batchStepDelay(),
    });
    const files = outcomes.map((o) => ({
      filePath: o.path,
      sha256: o.sha256Before!,
      chattr: shown(o.attributes!.after),
      previous: shown(o.attributes!.before),
    }));
    return { structured: { files: await withTag(engine, files, call.signal) }, text: '' };
  },
});
