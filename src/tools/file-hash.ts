// file_hash: SHA-256 of up to 50 whole files, streamed, without returning their contents.

import { z } from 'zod';
import { MAX_BATCH_FILES } from '../core/config.js';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { sha256File } from '../io/sha256-file.js';
import { defineTool } from './tool.js';

const Input = z.strictObject({
  filePaths: z.array(z.string()).min(1).max(MAX_BATCH_FILES).describe('1-50 file paths, relative to the root'),
});

const Entry = z.object({
  path: z.string(),
  sha256: z.string().optional(),
  size: z.number().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

const Output = z.object({ files: z.array(Entry) });

export const fileHashTool = defineTool({
  name: 'file_hash',
  family: 'boundary',
  title: 'Hash files (SHA-256)',
  description: [
    'SHA-256 of 1-50 whole files, streamed; contents are not returned. Call it right before a guarded change and pass the hash as expectedSha256.',
    'Example: {"filePaths": ["src/app.ts", "package.json"]}',
    'A file that cannot be hashed gets an `error` entry; the others are still hashed. After an error, fix the path and call again.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const files: z.infer<typeof Entry>[] = [];
    let done = 0;
    for (const p of args.filePaths) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      try {
        const rp = await engine.guard.resolve(p, 'read');
        const { sha256, size } = await sha256File(engine.guard, rp, call.signal);
        files.push({ path: rp.display, sha256, size });
      } catch (e) {
        const err = toHashlineError(e);
        if (err.code === 'aborted') throw err;
        files.push({ path: p, error: { code: err.code, message: err.message } });
      }
      call.progress({ progress: ++done, total: args.filePaths.length });
    }
    const text = files
      .map((f) => (f.sha256 ? `${f.sha256}  ${f.path} (${f.size} bytes)` : `error [${f.error?.code}] ${f.path}: ${f.error?.message}`))
      .join('\n');
    return { structured: { files }, text };
  },
});
