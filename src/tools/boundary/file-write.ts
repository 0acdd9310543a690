// file_write: creates or replaces 1-50 whole files as one all-or-nothing batch. Every path, size,
// chattr bound and hash is checked before anything is written; replacing an existing file needs its
// fresh expectedSha256 (unless [safety] require_hash = false), and a supplied hash is always checked.
// Content is written byte for byte as given (BOM and line endings included), each file atomically;
// missing parents are created and removed again if the batch fails; a failure part-way restores
// every file already written. Mode and owner of a replaced file are kept unless chattr says otherwise.
// With formatting enabled, a file whose path a formatter matches is formatted before the commit,
// by the same rule as file_patch (format-commit.ts): what is written is the formatter's output.

import { Buffer } from 'node:buffer';
import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { hasLoneSurrogate } from '../../core/text/text-codec.js';
import { commitBatch, type FileChange } from '../../io/batch/batch-commit.js';
import { fileRecord } from './boundary-batch.js';
import { resolveEntry } from './boundary-resolve.js';
import { Chattr, Sha256 } from './boundary-schemas.js';
import { checkChattr } from './chattr-policy.js';
import { formatForCommit } from './format-commit.js';
import type { Engine } from '../engine.js';
import { keepBeforeBytes, recordChangeTags, shapeOfText } from '../record-change.js';
import { defineTool } from '../tool.js';
import { withTag } from '../file-identity-fields.js';

const Entry = z.strictObject({
  content: z.string().meta({ guide: 'the complete file content, written byte for byte (UTF-8)' }),
  expectedSha256: Sha256.optional(),
  chattr: Chattr.optional().meta({ guide: 'mode (and owner) to give the file' }),
});

const Input = z.strictObject({
  files: fileRecord('file_write', Entry).meta({ guide: '1-50 files keyed by path, relative to the root' }),
});

const Written = z.object({
  filePath: z.string(),
  sha256: z.string(),
  /** The 4-hex tag of the same bytes (fs_edit's file_hash), when the file still holds them. */
  tag: z.string().optional(),
  size: z.number(),
  created: z.boolean(),
  previousSha256: z.string().optional(),
  formatter: z.string().optional(),
});
const Output = z.object({ files: z.array(Written) });

export const fileWriteTool = defineTool({
  name: 'file_write',
  family: 'boundary',
  title: 'Write whole files (all or nothing)',
  description: [
    'Creates or replaces 1-50 whole files, all or nothing. Replacing needs expectedSha256; a new file none.',
    'Example: {"files":{"a.ts":{"content":"x\\n"}}}',
    'stale_or_missing_hash: file_hash, retry.',
  ].join('\n'),
  guide: [
    'Creates or replaces 1-50 whole files in one all-or-nothing batch; content is written exactly as given (keep the file\'s own line endings). Replacing an existing file needs its fresh `expectedSha256` from file_hash or file_read; a new file takes none. Missing parent directories are created.',
    'Example: {"files": {"src/new.ts": {"content": "export const x = 1;\\n"}, "README.md": {"content": "# App\\n", "expectedSha256": "<64 hex from file_hash>"}}}',
    'On any error nothing is written (or everything written is restored: error.details.restored); error.details.filePath names the file. After stale_or_missing_hash, call file_hash and retry with the fresh hash. For a partial change use file_patch.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const settings = engine.configState().settings;
    const entries = Object.entries(args.files);
    const changes: FileChange[] = [];
    const formatters: Array<string | undefined> = [];
    // The whole batch is checked before the first byte is written: paths, content, chattr bounds.
    for (const [filePath, entry] of entries) {
      if (hasLoneSurrogate(entry.content)) {
        throw new HashlineError('invalid_arguments', `the content of \`${filePath}\` holds an unpaired UTF-16 surrogate, which has no UTF-8 form`, { details: { filePath } });
      }
      const rp = await resolveEntry(engine, filePath);
      if (entry.chattr) await checkChattr(engine, rp, entry.chattr, settings.chown);
      changes.push({
        kind: 'write',
        rp,
        bytes: Buffer.from(entry.content, 'utf8'),
        expectedSha256: entry.expectedSha256?.toLowerCase(),
        createParents: true,
        ...(entry.chattr?.chmod === undefined ? {} : { mode: entry.chattr.chmod }),
        ...(entry.chattr?.chown === undefined ? {} : { owner: entry.chattr.chown }),
      });
    }
    // then the formatters, on the bytes only (nothing in the tree is touched before the commit)
    for (const change of changes as Array<Extract<FileChange, { kind: 'write' }>>) {
      const formatted = await formatForCommit(engine, change.rp, change.bytes, call.signal);
      if (formatted.formatter !== undefined) change.bytes = Buffer.from(formatted.bytes);
      formatters.push(formatted.formatter);
    }
    // the replaced files' backups, removed in the thread pool while the reply is made
    const frees: Promise<void>[] = [];
    const outcomes = await commitBatch(engine.guard, engine.locks, changes, {
      frees,
      requireHash: settings.requireHash,
      signal: call.signal,
      keepBefore: keepBeforeBytes(engine),
      progress: (done, total) => call.progress({ progress: done, total }),
    });
    try {
      const tags: Array<string | null> = [];
      const files = outcomes.map((o, i) => {
        const change = changes[i] as Extract<FileChange, { kind: 'write' }>;
        // the batch hashed both sides: the history takes their SHA-256 as it is
        // unformatted, the bytes are the content's UTF-8 (checked free of lone surrogates): it is their text
        const content = entries[i]![1].content;
        const bom = content.charCodeAt(0) === 0xfeff;
        const after = { sha256: o.sha256After, ...(formatters[i] === undefined ? { shape: shapeOfText(bom ? content.slice(1) : content, bom) } : {}) };
        tags.push(recordChangeTags(engine, change.rp.real, o.before, change.bytes, undefined, { before: { sha256: o.sha256Before }, after }).after);
        return {
          filePath: o.path,
          sha256: o.sha256After!,
          size: change.bytes.length,
          created: o.created === true,
          ...(o.sha256Before === undefined ? {} : { previousSha256: o.sha256Before }),
          ...(formatters[i] === undefined ? {} : { formatter: formatters[i] }),
        };
      });
      // the tag of the bytes just written, while the file still holds them (no read again)
      const inHand = (_e: unknown, i: number) => {
        const key = outcomes[i]!.keyAfter;
        const change = changes[i] as Extract<FileChange, { kind: 'write' }>;
        return key === undefined ? undefined : { real: change.rp.real, bytes: change.bytes, key, tag: tags[i] };
      };
      return { structured: { files: await withTag(engine, files, call.signal, undefined, inHand) }, text: '' };
    } finally {
      await Promise.all(frees);
    }
  },
});
