// fs_read: numbered, tagged reads (seed 000, spec/hashline.md "Read Target rules"). Per target:
// symbol → directory check → line_range → line → whole file; `full` (opt-in) shows a block whole.
// Problems never abort the batch: they are `warnings` of that target's result. Every read records
// the file's snapshot and the lines it showed; the whole batch shares one reply budget, so no reply
// outgrows the message limit.

import { createHash } from 'node:crypto';
import * as z from 'zod';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { parseLineRange } from '../../core/read/line-range.js';
import { MAX_BATCH_FILES } from '../../core/config/config.js';
import { blockNotResolved, directoryWithoutSymbol, noGrammar, notUtf8, replyBudgetExhausted, symbolMaybeHidden, symbolNotFound, symbolSearchCapped } from '../../core/messages/read.js';
import { assembleContent, renderBlock, renderRanges, renderWhole, type LineSource, type Rendered } from '../../core/read/read-render.js';
import { ReplyBudget } from '../../core/read/reply-budget.js';
import { formatHeader } from '../../core/text/tag.js';
import { splitLines } from '../../core/text/text-doc.js';
import { openVerified } from '../../io/guard/open-verified.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { loadForParse, loadLines, type LoadedLines } from '../../io/read/read-lines.js';
import { loadWholeLines } from '../../io/read/whole-read-cache.js';
import { resolveBlockInTree } from '../../lang/symbols/blocks.js';
import { parseWhenReady } from '../../lang/parse/parse-cache.js';
import { sourceErrorPositions } from '../../lang/parse/parse-health.js';
import { isAvailable, languageForPath } from '../../lang/grammar/registry.js';
import { noGrammarInstalled } from '../../core/messages/lang.js';
import { symbolForRead } from '../../lang/symbols/symbol-read.js';
import { searchSymbol } from '../../lang/symbols/symbol-search.js';
import { noteStructuralRead } from '../../lang/parse/warm-after-write.js';
import type { Engine } from '../engine.js';
import { ReadResultSchema, type ReadResult } from './hashline-results.js';
import { defineTool } from '../tool.js';
import { withSha256, type InHand } from '../file-identity-fields.js';

const Target = z.strictObject({
  path: z.string().meta({ guide: 'File or directory, relative to the root (or absolute inside it)' }),
  line: z.number().int().optional().meta({ guide: 'Read the syntactic block that starts on this 1-based line' }),
  line_range: z.string().optional().describe('e.g. "2-5,40-60"').meta({ guide: 'Exact 1-based inclusive lines, e.g. "10-20" or "2-5,40-60"' }),
  symbol: z.string().optional().meta({ guide: 'Read the definition with this name; with a directory, search the tree' }),
  full: z.boolean().optional().describe('no elision').meta({ guide: 'With `symbol` or `line`: show the block whole, however long (default: blocks over 24 lines are elided)' }),
});
type TargetArgs = z.infer<typeof Target>;

/** The memo key (io/read/whole-read-cache.ts) of the SHA-256 of a kept whole read's bytes. */
const SHA256_MEMO = 'fs_read:sha256';

/** Results of whole reads, with the bytes read and the file's stat key then (for the reply's sha256). */
const readInHand = new WeakMap<ReadResult, InHand>();

/** A range, block or symbol result of a small file: its sha256 from the bytes the read holds (no second read). */
function heldBy(res: ReadResult, rp: ResolvedPath, loaded: LoadedLines): ReadResult {
  if (loaded.read !== undefined) readInHand.set(res, { real: rp.real, bytes: loaded.read.bytes, key: loaded.read.key });
  return res;
}

const Input = z.strictObject({ targets: z.array(Target).min(1).meta({ guide: 'What to read; each target gets its own result(s)' }) });
// `results` is optional in the schema only so that an error result ({ error }) validates too.
const Output = z.object({ results: z.array(ReadResultSchema).optional() });

function warningResult(path: string, message: string): ReadResult {
  return { path, file_hash: '', header: '', content: '', warnings: message };
}

function result(rp: ResolvedPath, tag: string, r: Rendered, extraWarnings: string[] = []): ReadResult {
  const header = formatHeader(rp.display, tag);
  const warnings = [...r.warnings, ...extraWarnings];
  return { path: rp.display, file_hash: tag, header, content: assembleContent(header, r), ...(warnings.length ? { warnings: warnings.join('\n') } : {}) };
}

/**
 * Records the snapshot (when it can be kept) and the lines that were shown. `known` passes what the
 * load computed already: the text's tag, and its UTF-8 bytes when the file's bytes are exactly those.
 */
function remember(engine: Engine, real: string, text: string | undefined, seen: readonly number[], known: { tag: string; bytes?: Uint8Array | undefined }): void {
  if (text === undefined || engine.history.record(real, text, known) === null) return;
  engine.history.markSeen(real, text, seen);
}

function textSource(text: string): LineSource & { trailingEmpty: boolean } {
  const { lines, endings } = splitLines(text);
  return { total: lines.length, line: (n) => lines[n - 1] ?? '', trailingEmpty: lines.length === 0 || endings[endings.length - 1] !== '' };
}

async function isDirectory(engine: Engine, rp: ResolvedPath): Promise<boolean> {
  try {
    const vh = await openVerified(engine.guard, rp, 'read', 'dir');
    await vh.handle.close();
    return true;
  } catch (e) {
    if (e instanceof HashlineError && (e.code === 'not_a_directory' || e.code === 'not_regular_file')) return false;
    if (e instanceof HashlineError && e.code === 'not_found') throw e;
    return false;
  }
}

/** When the file does not parse: where its first syntax error is and where the name occurs (at most 5 lines). */
function hiddenBySyntax(lang: NonNullable<ReturnType<typeof languageForPath>>, text: string, name: string): string[] {
  const first = sourceErrorPositions(lang, text, 1)?.[0];
  if (first === undefined) return [];
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_$])`, 'u');
  const at: number[] = [];
  const { lines } = splitLines(text);
  for (let i = 0; i < lines.length && at.length < 5; i++) if (word.test(lines[i]!)) at.push(i + 1);
  return [symbolMaybeHidden(name, first.line, at)];
}

async function readSymbol(engine: Engine, rp: ResolvedPath, name: string, budget: ReplyBudget, signal: AbortSignal, full: boolean): Promise<ReadResult[]> {
  if (await isDirectory(engine, rp)) {
    const { hits, problems } = await searchSymbol(engine.guard, rp.real, name, { signal, limit: MAX_BATCH_FILES + 1 });
    const out: ReadResult[] = problems.map((p) => warningResult(p.display, p.message));
    let shown = 0;
    for (const h of hits) {
      if (shown === MAX_BATCH_FILES || budget.exhausted) {
        out.push(warningResult(rp.display, symbolSearchCapped(shown)));
        break;
      }
      shown++;
      const src = textSource(h.file.text);
      const r = renderBlock(src, h.match, budget, full);
      const frp = { ...rp, display: h.display, real: h.real };
      remember(engine, h.real, h.file.text, r.seen, { tag: h.file.tag });
      out.push(result(frp, h.file.tag, r, h.file.utf8 ? [] : [notUtf8(h.display)]));
    }
    if (hits.length === 0) return [...out, warningResult(rp.display, symbolNotFound(name, rp.display))];
    return out;
  }
  const lang = languageForPath(rp.display) ?? languageForPath(rp.real);
  if (!lang) return [warningResult(rp.display, noGrammar(rp.display))];
  if (!isAvailable(lang)) return [warningResult(rp.display, noGrammarInstalled(rp.display, lang.id))];
  noteStructuralRead(rp.real, name);
  const loaded = await loadForParse(engine.guard, rp, signal);
  const match = await symbolForRead(rp.real, lang, loaded.text, name);
  if (!match) return [warningResult(rp.display, [symbolNotFound(name, rp.display), ...hiddenBySyntax(lang, loaded.text, name)].join(' '))];
  const src = textSource(loaded.text);
  const r = renderBlock(src, match, budget, full);
  remember(engine, rp.real, loaded.text, r.seen, { tag: loaded.tag });
  return [heldBy(result(rp, loaded.tag, r, loaded.utf8 ? [] : [notUtf8(rp.display)]), rp, loaded)];
}

async function readFile(engine: Engine, rp: ResolvedPath, t: TargetArgs, budget: ReplyBudget, signal: AbortSignal): Promise<ReadResult> {
  const keepTextUpTo = 2 * engine.history.limits.maxSnapshotBytes;
  const allowance = budget.remaining;
  const whole = async (warning: string | undefined): Promise<ReadResult> => {
    const loaded = await loadWholeLines(engine.guard, rp, { allowance, keepTextUpTo, signal });
    const r = renderWhole(loaded, loaded.trailingEmpty, budget, loaded.memo);
    remember(engine, rp.real, loaded.text, r.seen, { tag: loaded.tag, bytes: loaded.textBytes });
    const w = [...(warning ? [warning] : []), ...(loaded.utf8 ? [] : [notUtf8(rp.display)])];
    const res = result(rp, loaded.tag, r, w);
    // the bytes just read: the reply's SHA-256 is theirs (hashed once per kept read) while the file keeps their stat key
    const read = loaded.read;
    if (read !== undefined) {
      const memo = loaded.memo;
      const sha256 = () => {
        const known = memo?.get(SHA256_MEMO) as string | undefined;
        if (known !== undefined) return known;
        const digest = createHash('sha256').update(read.bytes).digest('hex');
        memo?.set(SHA256_MEMO, digest);
        return digest;
      };
      readInHand.set(res, { real: rp.real, bytes: read.bytes, key: read.key, sha256 });
    }
    return res;
  };
  if (t.line_range !== undefined) {
    const parsed = parseLineRange(t.line_range);
    if (!parsed.ok) return whole(parsed.message);
    const ranges = parsed.ranges;
    const single = ranges.length === 1 && ranges[0]!.start === ranges[0]!.end;
    const loaded = await loadLines(engine.guard, rp, {
      want: (n) => ranges.some((g) => n >= g.start && n <= g.end),
      allowance,
      maxLineUnits: single ? undefined : 1024,
      keepTextUpTo,
      signal,
    });
    const r = renderRanges(loaded, ranges, budget);
    remember(engine, rp.real, loaded.text, r.seen, { tag: loaded.tag });
    return heldBy(result(rp, loaded.tag, r, loaded.utf8 ? [] : [notUtf8(rp.display)]), rp, loaded);
  }
  if (t.line !== undefined) {
    const lang = languageForPath(rp.display) ?? languageForPath(rp.real);
    if (!lang) return whole(blockNotResolved(t.line, rp.display));
    if (!isAvailable(lang)) return whole(noGrammarInstalled(rp.display, lang.id));
    noteStructuralRead(rp.real);
    const loaded = await loadForParse(engine.guard, rp, signal);
    const tree = await parseWhenReady(lang, loaded.text);
    const span = tree ? resolveBlockInTree(tree.root(), loaded.text, t.line) : null;
    if (!span) return whole(blockNotResolved(t.line, rp.display));
    const r = renderBlock(textSource(loaded.text), span, budget, t.full === true);
    remember(engine, rp.real, loaded.text, r.seen, { tag: loaded.tag });
    return heldBy(result(rp, loaded.tag, r, loaded.utf8 ? [] : [notUtf8(rp.display)]), rp, loaded);
  }
  return whole(undefined);
}

async function readTarget(engine: Engine, t: TargetArgs, budget: ReplyBudget, signal: AbortSignal): Promise<ReadResult[]> {
  let rp: ResolvedPath;
  try {
    rp = await engine.guard.resolve(t.path, 'read');
  } catch (e) {
    return [warningResult(t.path, toHashlineError(e).message)];
  }
  try {
    if (budget.exhausted) return [warningResult(rp.display, replyBudgetExhausted(rp.display))];
    if (t.symbol !== undefined) return await readSymbol(engine, rp, t.symbol, budget, signal, t.full === true);
    return [await readFile(engine, rp, t, budget, signal)];
  } catch (e) {
    const err = toHashlineError(e);
    if (err.code === 'aborted') throw err;
    if (err.code === 'is_directory') return [warningResult(rp.display, directoryWithoutSymbol(rp.display))];
    return [warningResult(rp.display, err.message)];
  }
}

export const fsReadTool = defineTool({
  name: 'fs_read',
  family: 'hashline',
  title: 'Read numbered, tagged lines',
  description: [
    'Reads files as `N| text` lines under a ¶path#TAG header (TAG: for fs_edit). Per target: `symbol`, `line_range`, `line` (its block) or none (whole file).',
    'Example: {"targets":[{"path":"a.ts","symbol":"main"}]}',
    'A bad path or range is a warning: fix it, read again.',
  ].join('\n'),
  guide: [
    'Reads files as `N| text` lines under a `¶path#TAG` header; pass the 4-hex TAG to fs_edit. Per target: `symbol` (a definition by name; with a directory path, searches the tree), `line_range` ("10-20" or "2-5,40-60"), `line` (the syntactic block starting there), or nothing (the whole file).',
    'Example: {"targets": [{"path": "src/app.ts", "symbol": "main"}, {"path": "README.md", "line_range": "1-40"}]}',
    'Blocks over 24 lines are elided (`"full": true` shows them whole) and long lines cut; the notices say which `line_range` to read next. A missing file or bad range is a `warnings` entry of that target; fix it and read again. After any edit, use the fresh tag from the edit result or re-read.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const budget = new ReplyBudget();
    const results: ReadResult[] = [];
    let done = 0;
    for (const t of args.targets) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      results.push(...(await readTarget(engine, t, budget, call.signal)));
      call.progress({ progress: ++done, total: args.targets.length });
    }
    const text = results.map((r) => (r.content !== '' ? r.content : '') + (r.warnings ? `${r.content !== '' ? '\n' : ''}[warning] ${r.path}: ${r.warnings}` : '')).join('\n\n');
    // nothing read at all (every target refused or missing): the call is an error, its results still say why
    const nothing = results.every((r) => r.file_hash === '' && r.content === '');
    return { structured: { results: await withSha256(engine, results, call.signal, (r) => readInHand.get(r)) }, text, ...(nothing ? { isError: true } : {}) };
  },
});
