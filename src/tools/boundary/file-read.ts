// file_read: 1-50 reads, each in mode text (an exact window of lines, zero-based and end-exclusive,
// streamed while the whole file is hashed), ast (a source map of the file's top-level symbols, the
// requested symbols with their lines, or RFC 6901 selectors over JSON, JSONC, TOML and YAML), or
// auto (ast where available and no window was asked for). Every result carries the whole-file
// SHA-256, size, requested and resolved mode, and the file's capabilities. Problems of one file are
// reported in its entry; the others are still read. The batch's content stays within the reply limit.

import * as z from 'zod';
import { boundaryError } from '../../core/errors/envelope.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { jsonEscapedBytes } from '../../core/read/reply-budget.js';
import { cutBytes, lineCount, readByteWindow, type ByteWindow } from '../../io/read/byte-window.js';
import * as msg from '../../core/messages/read.js';
import { fileList } from './boundary-batch.js';
import { FileError } from './boundary-schemas.js';
import { CapabilityEntry } from './file-capabilities.js';
import { readAst, AstResultSchema } from './file-read-ast.js';
import { checkReadRequest, DEFAULT_LINES, FILE_READ_MAX_BYTES, type ReadRequest } from './file-read-request.js';
import { inspectFile } from './file-facts.js';
import { effectiveMethods, intrinsicMethods } from '../../core/capabilities.js';
import type { Engine } from '../engine.js';
import { defineTool } from '../tool.js';
import { numberPair } from '../schema-forms.js';
import { withTag } from '../file-identity-fields.js';

/**
 * What the contents of one batch may cost in the reply (the text block repeats them, escaped again):
 * room for one maxBytes of 1 MiB, and the reply stays under the 8 MiB message limit.
 */
export const READ_BATCH_BUDGET = 6 * 1024 * 1024;

const Request = z.strictObject({
  filePath: z.string().min(1),
  mode: z.enum(['auto', 'ast', 'text']).optional().meta({ guide: 'default auto: ast where available unless a window is asked for' }),
  range: z.strictObject({ start: z.number(), end: z.number() }).optional().meta({ guide: 'text window: zero-based lines [start, end)' }),
  lines: numberPair().optional().describe('= range').meta({ guide: 'alias of range: [start, end), zero-based' }),
  maxBytes: z.number().optional().meta({ guide: 'content limit, 1..1048576 (default 1048576)' }),
  byteOffset: z.number().optional().meta({ guide: 'with a window: bytes of its first line to skip (the rest of a cut line; see the note)' }),
  language: z.string().optional().meta({ guide: 'grammar to parse with, when the extension does not say' }),
  selectors: z.array(z.string()).min(1).max(100).optional().meta({ guide: 'RFC 6901 pointers into a JSON, JSONC, TOML or YAML file' }),
  symbols: z.array(z.string().min(1)).min(1).max(100).optional().meta({ guide: 'names of definitions to return with their lines' }),
});

const Result = z.object({
  filePath: z.string(),
  sha256: z.string().optional(),
  /** The 4-hex tag of the same bytes (fs_edit's file_hash), when the file still holds them. */
  tag: z.string().optional(),
  size: z.number().optional(),
  requestedMode: z.string().optional(),
  resolvedMode: z.string().optional(),
  content: z.string().optional(),
  lossy: z.boolean().optional(),
  truncated: z.boolean().optional(),
  hasMore: z.boolean().optional(),
  totalLines: z.number().optional(),
  lines: z.object({ requested: numberPair(), returned: numberPair() }).optional(),
  byteOffset: z.number().optional(),
  continueWith: z.object({ start: z.number(), end: z.number(), byteOffset: z.number().optional() }).optional(),
  ast: AstResultSchema.optional(),
  capabilities: CapabilityEntry.omit({ filePath: true, error: true }).optional(),
  note: z.string().optional(),
  error: FileError.optional(),
});
type Result = z.infer<typeof Result>;

const Input = z.strictObject({ files: fileList('file_read', Request).meta({ guide: '1-50 reads' }) });
const Output = z.object({ files: z.array(Result) });

class Budget {
  constructor(private left: number) {}
  /** What a string costs: escaped in structuredContent, then twice more in the text block's JSON. */
  static cost(s: string): number {
    return 3 * jsonEscapedBytes(s);
  }
  take(cost: number): boolean {
    if (cost > this.left) return false;
    this.left -= cost;
    return true;
  }
  get remaining(): number {
    return this.left;
  }
}

async function readOne(engine: Engine, req: ReadRequest, budget: Budget, signal: AbortSignal): Promise<Result> {
  const rp = await engine.guard.resolve(req.filePath, 'read');
  const requestedMode = req.mode ?? 'auto';
  const wantsWindow = req.range !== undefined || req.lines !== undefined;
  const inspected = await inspectFile(engine, rp, { parse: requestedMode !== 'text' && !wantsWindow, ...(req.language ? { language: req.language } : {}) });
  const { facts } = inspected;
  if (facts.kind === 'missing') throw new HashlineError('not_found', `File not found: ${rp.display}`, { details: { filePath: rp.display } });
  if (facts.kind === 'directory') throw new HashlineError('is_directory', `\`${rp.display}\` is a directory; file_read reads files (use fs_list to see a directory)`, { details: { filePath: rp.display } });
  const intrinsic = intrinsicMethods(facts);
  const settings = engine.configState().settings;
  const effective = effectiveMethods(intrinsic, settings);
  const capabilities = {
    kind: facts.kind,
    ...(facts.language === undefined ? {} : { language: facts.language, grammarInstalled: facts.grammarInstalled }),
    ...(facts.documentFormat === undefined ? {} : { documentFormat: facts.documentFormat }),
    parse: facts.parse,
    generation: engine.configState().generation,
    intrinsic,
    effective,
  };
  const astWanted = requestedMode === 'ast' || (requestedMode === 'auto' && !wantsWindow && effective.read.includes('ast'));
  if (astWanted && !effective.read.includes('ast')) {
    const why = intrinsic.read.includes('ast') ? 'excluded by [files.read] modes' : facts.kind === 'binary' ? 'a binary file' : 'no grammar or document format for this file';
    throw new HashlineError('read_mode_unavailable', `file_read mode "ast" is not available for \`${rp.display}\` (${why}); use mode "text"`, {
      details: { filePath: rp.display, effective: effective.read },
    });
  }
  if (astWanted) {
    const ast = await readAst(engine, rp, facts, inspected.bytes, req);
    const size = inspected.size ?? 0;
    if (!budget.take(Budget.cost(JSON.stringify(ast.result)))) {
      throw new HashlineError('document_result_too_large', `the AST result of \`${rp.display}\` does not fit in this reply; ask for fewer selectors or symbols, or read fewer files at once`, {
        details: { filePath: rp.display },
      });
    }
    return { filePath: rp.display, sha256: ast.sha256, size, requestedMode, resolvedMode: 'ast', ast: ast.result, capabilities };
  }
  if (req.selectors || req.symbols) {
    throw new HashlineError('invalid_arguments', 'selectors and symbols need mode "ast" or "auto"', { details: { filePath: rp.display } });
  }
  if (!effective.read.includes('text')) {
    throw new HashlineError('read_mode_unavailable', `file_read mode "text" is not available for \`${rp.display}\` (${facts.kind === 'binary' ? 'a binary file' : 'excluded by [files.read] modes'})`, {
      details: { filePath: rp.display, effective: effective.read },
    });
  }
  const [start, end] = req.range ? [req.range.start, req.range.end] : (req.lines ?? DEFAULT_LINES);
  const maxBytes = Math.min(req.maxBytes ?? FILE_READ_MAX_BYTES, Math.max(0, Math.floor(budget.remaining / 6)));
  const w = await readByteWindow(engine.guard, rp, { start, end, maxBytes, skip: req.byteOffset ?? 0 }, { signal, tag: true });
  let bytes = w.content;
  let content = bytes.toString('utf8');
  let { truncated, hasMore } = w;
  // what the batch still has room for (the content is escaped several times over in the reply)
  while (!budget.take(Budget.cost(content))) {
    bytes = cutBytes(bytes, Math.floor(bytes.length / 2));
    content = bytes.toString('utf8');
    truncated = true;
    hasMore = true;
  }
  const lossy = content.includes('\uFFFD') && !w.content.includes(Buffer.from('\uFFFD'));
  const at = stopPosition(start, w, bytes);
  // a cut line is not returned: lines.returned holds whole lines (a first line read from byteOffset counts once its end is reached)
  const cut = truncated && at.byteOffset > 0;
  const whole = truncated ? at.line - start : w.returned;
  const span = Math.min(1000, Math.max(1, end - start));
  const next = cut ? { start: at.line, end: at.line + span, byteOffset: at.byteOffset } : { start: start + whole, end: start + whole + span };
  return {
    filePath: rp.display,
    sha256: w.sha256,
    size: w.size,
    requestedMode,
    resolvedMode: 'text',
    content,
    ...(lossy ? { lossy: true } : {}),
    truncated,
    hasMore,
    totalLines: w.totalLines,
    lines: { requested: [start, end], returned: [start, start + whole] },
    ...(w.skipped > 0 ? { byteOffset: w.skipped } : {}),
    ...(hasMore ? { continueWith: next, note: cut ? msg.fileReadLineCut(at.line, at.byteOffset, next.end) : msg.fileReadContinue(next.start, next.end) } : {}),
    capabilities,
    // the tag of the bytes the sha256 names, from the same read
    ...(w.tag === undefined ? {} : { tag: w.tag }),
  };
}

/** Where the content stops: the line it ends in and the bytes of that line it holds (0: it ends after whole lines). */
function stopPosition(start: number, w: ByteWindow, bytes: Buffer): { line: number; byteOffset: number } {
  // the window's first line, when `skip` passed its end, holds nothing in the content yet was reached
  const lead = w.returned - lineCount(w.content);
  const line = start + lead;
  const offset = lead > 0 ? 0 : w.skipped;
  const nl = bytes.lastIndexOf(10);
  if (nl < 0) return { line, byteOffset: offset + bytes.length };
  let newlines = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) newlines++;
  return { line: line + newlines, byteOffset: bytes.length - nl - 1 };
}

export const fileReadTool = defineTool({
  name: 'file_read',
  family: 'boundary',
  title: 'Read files (windows, symbols, selectors)',
  description: [
    'Reads 1-50 files. mode "text": zero-based lines [start, end), default [0, 100]. mode "ast": `symbols`, `selectors` (RFC 6901 into JSON/YAML/TOML) or a symbol map. Each has sha256, hasMore.',
    'Example: {"files":[{"filePath":"a.ts","lines":[0,80]}]}',
    'Errors are per file; read_mode_unavailable: use mode "text".',
  ].join('\n'),
  guide: [
    'Reads 1-50 files. mode "text": exact content of lines [start, end) (zero-based, end-exclusive; default [0, 100], at most 1000 lines, maxBytes <= 1048576) via `range: {start, end}` or `lines: [start, end]`. mode "ast": `symbols` (definitions with their lines), `selectors` (RFC 6901 pointers into JSON, JSONC, TOML, YAML), or neither for a source map of the top-level symbols. mode "auto" (default) picks ast where available unless a window is asked for.',
    'Example: {"files": [{"filePath": "src/app.ts", "lines": [0, 80]}, {"filePath": "package.json", "selectors": ["/scripts/test"]}, {"filePath": "src/app.ts", "symbols": ["main"]}]}',
    'Every result has the whole-file sha256 (pass it as expectedSha256 to change the file) and hasMore/lines.returned to continue. A file that cannot be read gets an `error` entry; after read_mode_unavailable call file_capabilities or use mode "text".',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const budget = new Budget(READ_BATCH_BUDGET);
    const files: Result[] = [];
    for (const req of args.files) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      try {
        checkReadRequest(req);
        files.push(await readOne(engine, req, budget, call.signal));
      } catch (e) {
        const err = toHashlineError(e);
        if (err.code === 'aborted') throw err;
        files.push({ filePath: req.filePath, error: boundaryError(err, req.filePath) });
      }
      call.progress({ progress: files.length, total: args.files.length });
    }
    return { structured: { files: await withTag(engine, files, call.signal) }, text: '' };
  },
});
