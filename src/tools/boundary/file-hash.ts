// file_hash: SHA-256 (and the 4-hex tag, from the same read, of a file that is not binary) of up
// to 50 whole files, without returning their contents: a file up to 1 MiB read at once,
// synchronously; a larger one streamed. A few files are in flight at once: the SHA-256 of a file
// from 256 KiB on runs on its own thread while this one reads and tags the next (io/read/file-identity.ts).

import { setImmediate } from 'node:timers/promises';
import * as z from 'zod';
import { boundaryError } from '../../core/errors/envelope.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { fileIdentity } from '../../io/read/file-identity.js';
import { fileList } from './boundary-batch.js';
import { FileError } from './boundary-schemas.js';
import { defineTool } from '../tool.js';

/** The longest stretch of hashing before the event loop gets a turn. */
const YIELD_AFTER_MS = 2;
/** Files hashed at once. */
const IN_FLIGHT = 3;

const Input = z.strictObject({
  filePaths: fileList('file_hash', z.string().min(1)).meta({ guide: '1-50 file paths, relative to the root' }),
});

const Entry = z.object({
  filePath: z.string(),
  sha256: z.string().optional(),
  /** The 4-hex tag of the same bytes (fs_edit's file_hash); none for a binary file (a NUL in its first 8 KiB). */
  tag: z.string().optional(),
  size: z.number().optional(),
  error: FileError.optional(),
});

const Output = z.object({ files: z.array(Entry) });

export const fileHashTool = defineTool({
  name: 'file_hash',
  family: 'boundary',
  title: 'Hash files (SHA-256)',
  description: [
    'SHA-256 of 1-50 files: the expectedSha256 that file changes need.',
    'Example: {"filePaths":["a.ts"]}',
    'Errors are per path.',
  ].join('\n'),
  guide: [
    'SHA-256 of 1-50 whole files, streamed; contents are not returned. Call it right before a guarded change (file_write, file_patch, file_rename, file_chattr, file_delete) and pass the hash as expectedSha256.',
    'Example: {"filePaths": ["src/app.ts", "package.json"]}',
    'A file that cannot be hashed gets an `error` entry; the others are still hashed. After an error, fix the path and call again.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const paths = args.filePaths;
    const files = new Array<z.infer<typeof Entry>>(paths.length);
    let next = 0;
    let done = 0;
    let turn = performance.now();
    // a few files in flight: this thread reads and tags one while the SHA-256 thread hashes another
    const lane = async (): Promise<void> => {
      while (next < paths.length) {
        const i = next++;
        const p = paths[i]!;
        // small files are read and hashed without a pause: give the event loop a turn now and then
        // (other requests, and a cancellation, wait for one)
        if (performance.now() - turn > YIELD_AFTER_MS) {
          await setImmediate();
          turn = performance.now();
        }
        if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
        try {
          const rp = await engine.guard.resolve(p, 'read');
          // the SHA-256 and the tag from one read of the bytes
          const { sha256, tag, size } = await fileIdentity(engine.guard, rp, call.signal, true);
          files[i] = { filePath: rp.display, sha256, size, ...(tag === undefined ? {} : { tag }) };
        } catch (e) {
          const err = toHashlineError(e);
          if (err.code === 'aborted') throw err;
          files[i] = { filePath: p, error: boundaryError(err, p) };
        }
        call.progress({ progress: ++done, total: paths.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, paths.length) }, lane));
    return { structured: { files }, text: '' };
  },
});
