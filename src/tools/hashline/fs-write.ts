// fs_write: whole-file overwrites (seed 000, spec/hashline.md "Write"). Per target: legacy prefix
// strip, empty-text refusal, guard (a path in both lists aborts the whole batch before anything
// is written; other denials are that file's warning), generated-file refusal, then an atomic write
// under the file's lock: new files LF without BOM, existing files keep their BOM and line ending
// and their mode (+x added for a shebang). Missing parent folders are created. An optional
// `file_hash` (the tag or the SHA-256 last seen) refuses the write when the file changed since. A
// batch in which no file was written is an error. Both contents are recorded in the history.

import { createHash } from 'node:crypto';
import * as z from 'zod';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { generatedMarker, generatedRefusal } from '../../core/generated.js';
import { AUTO_STRIPPED, MADE_EXECUTABLE, emptyText, loneSurrogate, writeDenied, writeFailed, writeStale } from '../../core/messages/write.js';
import { stripWritePrefixes } from '../../core/read/prefix-strip.js';
import { computeTag, formatHeader } from '../../core/text/tag.js';
import { hasLoneSurrogate } from '../../core/text/text-codec.js';
import { docFromText, docText, normalizeToLf, serializeDoc } from '../../core/text/text-doc.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { writeAtomic } from '../../io/atomic-write.js';
import { statKeyNow } from '../../io/read/read-verified-sync.js';
import { loadTextFile } from '../../io/read/text-file.js';
import { forgetFile } from '../../lang/symbols/symbol-search.js';
import { MAX_BATCH_FILES } from '../../core/config/config.js';
import type { Engine } from '../engine.js';
import { WriteResultSchema, type WriteResult } from './hashline-results.js';
import { defineTool } from '../tool.js';
import { withSha256, type InHand } from '../file-identity-fields.js';
import { recordMade } from '../record-change.js';

const TargetFile = z.strictObject({
  path: z.string().meta({ guide: 'File to create or overwrite, relative to the root' }),
  text: z.string().meta({ guide: 'The complete new content (raw text, no `N| ` prefixes)' }),
  file_hash: z.string().optional().meta({ guide: 'the 4-hex TAG or the SHA-256 of the file as you last saw it: refused if it changed since' }),
});
const Input = z.strictObject({ targets: z.array(TargetFile).min(1).max(MAX_BATCH_FILES).meta({ guide: '1-50 files to write' }) });
// `results` is optional in the schema only so that an error result ({ error }) validates too.
const Output = z.object({ results: z.array(WriteResultSchema).optional() });

function warned(path: string, warnings: string[], tag = ''): WriteResult {
  return { path, file_hash: tag, header: tag ? formatHeader(path, tag) : '', ...(warnings.length ? { warnings: warnings.join('\n') } : {}) };
}

type Resolved = { ok: true; rp: ResolvedPath } | { ok: false; message: string };

/** Whether `sent` (a 4-hex tag or a 64-hex SHA-256) names the file as it is. */
function sameVersion(sent: string, tag: string, bytes: Uint8Array): boolean {
  const s = sent.trim().replace(/^#/, '').toLowerCase();
  return s.length === 64 ? s === createHash('sha256').update(bytes).digest('hex') : s === tag.toLowerCase();
}

/** A result, and the bytes written with the file's stat key right after, under the file's lock. */
type Written = WriteResult & { held?: InHand };

async function writeOne(engine: Engine, input: string, raw: string, resolved: Resolved, expected: string | undefined): Promise<Written> {
  const warnings: string[] = [];
  const strip = stripWritePrefixes(raw);
  if (strip.stripped) warnings.push(AUTO_STRIPPED);
  const display = resolved.ok ? resolved.rp.display : input;
  if (strip.text.trim() === '') return warned(display, [...warnings, emptyText(display, strip.stripped)]);
  if (!resolved.ok) return warned(display, [...warnings, resolved.message]);
  const rp = resolved.rp;
  const text = normalizeToLf(strip.text);
  return engine.locks.withLocks([rp.real], async () => {
    let shape = { bom: false, eol: '\n' as const } as { bom: boolean; eol: '\n' | '\r\n' | '\r' };
    let mode: number | undefined;
    let previous: string | undefined;
    try {
      const existing = await loadTextFile(engine.guard, rp, 'write');
      if (expected !== undefined && !sameVersion(expected, existing.tag, existing.bytes)) return warned(display, [...warnings, writeStale(display, expected, existing.tag)]);
      const marker = generatedMarker(existing.text);
      if (marker) return warned(display, [...warnings, generatedRefusal(display, marker)]);
      shape = { bom: existing.doc.bom, eol: existing.doc.eol };
      mode = existing.mode & 0o7777;
      previous = existing.text;
    } catch (e) {
      const err = toHashlineError(e);
      if (err.code !== 'not_found') return warned(display, [...warnings, writeFailed(display, err.message)]);
      if (expected !== undefined) return warned(display, [...warnings, writeStale(display, expected, undefined)]);
    }
    const doc = docFromText(text, shape);
    let newMode: number | undefined;
    if (text.startsWith('#!')) {
      const base = mode ?? 0o666 & ~process.umask();
      if ((base | 0o111) !== base) newMode = base | 0o111;
    }
    if (previous !== undefined) engine.history.record(rp.real, previous);
    const bytes = serializeDoc(doc);
    let key: string | undefined;
    try {
      await writeAtomic(engine.guard, rp, bytes, { createParents: true, ...(newMode === undefined ? {} : { mode: newMode }) });
      key = statKeyNow(rp.real);
    } catch (e) {
      return warned(display, [...warnings, writeFailed(display, toHashlineError(e).message)]);
    } finally {
      forgetFile(rp.real);
    }
    if (newMode !== undefined) warnings.push(MADE_EXECUTABLE);
    const written = docText(doc);
    // The agent wrote every line of this text, so every line counts as seen for later edits.
    if (recordMade(engine, rp.real, written) !== null) {
      engine.history.markSeen(rp.real, written, Array.from({ length: doc.lines.length }, (_, i) => i + 1));
    }
    const result: Written = warned(display, warnings, computeTag(written));
    if (key !== undefined) result.held = { real: rp.real, bytes, key };
    return result;
  });
}

export const fsWriteTool = defineTool({
  name: 'fs_write',
  family: 'hashline',
  title: 'Write whole files',
  description: [
    'Creates or overwrites whole files with raw text; returns each ¶path#TAG for fs_edit. Missing folders are created; `file_hash` (tag or SHA-256 last seen) refuses a changed file.',
    'Example: {"targets":[{"path":"a.md","text":"# A\\n"}]}',
    'A refused file is a warning: fix it, retry.',
  ].join('\n'),
  guide: [
    'Creates or completely overwrites files with the given text; returns each file\'s new `¶path#TAG` header for a follow-up fs_edit. Send raw text without `N| ` prefixes. Missing folders are created; with `file_hash` (the 4-hex TAG or the SHA-256 of the file as last seen) a file changed since is refused. Existing files keep their line endings, BOM and mode; a `#!` script becomes executable.',
    'Example: {"targets": [{"path": "notes/todo.md", "text": "# Todo\\n- ship\\n"}]}',
    'A refused file (empty text, a generated file, a denied path, a changed file_hash, a failed write) gets `warnings` and is not written; none written: isError. For a partial change, read the file and use fs_edit instead.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    for (const t of args.targets) {
      if (hasLoneSurrogate(t.text)) throw new HashlineError('invalid_arguments', loneSurrogate(t.path), { details: { path: t.path } });
    }
    // resolve every path first: a path in both lists aborts the batch before anything is written
    const resolved: Resolved[] = [];
    for (const t of args.targets) {
      try {
        resolved.push({ ok: true, rp: await engine.guard.resolve(t.path, 'write') });
      } catch (e) {
        const err = toHashlineError(e);
        if (err.code === 'path_conflict') throw err;
        const reason = err.message.replace(/^permission denied: `[^`]*` (?:— )?/, '');
        resolved.push({ ok: false, message: writeDenied(t.path, engine.guard.root, reason, err.code === 'path_outside_root') });
      }
    }
    const results: WriteResult[] = [];
    const held: Array<InHand | undefined> = [];
    for (let i = 0; i < args.targets.length; i++) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      const t = args.targets[i]!;
      const { held: h, ...result } = await writeOne(engine, t.path, t.text, resolved[i]!, t.file_hash);
      results.push(result);
      held.push(h);
      call.progress({ progress: i + 1, total: args.targets.length });
    }
    const text = results.map((r) => (r.header || r.path) + (r.warnings ? `\n[warning] ${r.warnings}` : '')).join('\n');
    // every file refused: the call is an error (its results still say why, file by file)
    return { structured: { results: await withSha256(engine, results, call.signal, (_r, i) => held[i]) }, text, ...(results.every((r) => r.file_hash === '') ? { isError: true } : {}) };
  },
});
