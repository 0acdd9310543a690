// fs_search: content search over the guarded tree. Each file with hits comes back as fs_read shows
// a window (¶path#TAG header, `N| text` lines, 200-column cut), recorded in the session history
// with the shown lines marked as seen, so the agent edits from the hits with fs_edit. Files are
// read through the warm file cache (io/read/file-cache.ts): the bytes of a file are only searched until
// they match, and a file that matches (or looks binary) is read again with every check before it
// counts or is shown.
// Binary files (a NUL byte) are skipped; files over 2 MiB are skipped in a tree (named in a note)
// and searched up to 16 MiB when given as the path. Past max_results (or the 50 files the session
// history keeps) the search goes on counting only, so the totals are whole.

import { lstatSync } from 'node:fs';
import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { matchesAny, matchLines } from '../../core/read/line-matches.js';
import { binarySkipped, fileLimitReached, largeSkipped, moreMatchesInFile, replyLimitReached, searchCapped, searchSummary } from '../../core/messages/nav.js';
import { compileGlob } from '../../core/config/path-glob.js';
import { ReplyBudget } from '../../core/read/reply-budget.js';
import { compileSearchPattern, type SearchPattern } from '../../core/read/search-pattern.js';
import { decodeEntry, entryFor, MAX_CACHED_FILE_BYTES, verifiedEntry, type CachedFile } from '../../io/read/file-cache.js';
import { loadForParse } from '../../io/read/read-lines.js';
import { filesUnder } from '../../io/tree/tree-files.js';
import type { Engine } from '../engine.js';
import { HitResultSchema, taggedHits, textLines, type HitFile, type HitResult } from './tagged-hits.js';
import { defineTool } from '../tool.js';

/** The event loop is released after this long of synchronous work. */
const SLICE_MS = 8;

const Input = z.strictObject({
  pattern: z.string().meta({ guide: 'text to find; with `regex: true`, a JavaScript regular expression' }),
  regex: z.boolean().default(false).meta({ guide: 'treat `pattern` as a regular expression (JavaScript RegExp syntax, multi-line: ^ and $ match at lines)' }),
  case_sensitive: z.boolean().optional().meta({ guide: 'default: sensitive iff the pattern has an upper-case letter' }),
  path: z.string().default('.').meta({ guide: 'directory or file to search, relative to the root' }),
  glob: z.string().optional().meta({ guide: 'only files whose path (relative to `path`) matches, e.g. "*.ts" or "src/**/*.py"' }),
  context: z.number().int().min(0).max(20).default(2).meta({ guide: 'lines shown before and after each hit' }),
  max_results: z.number().int().min(1).max(2000).default(100).meta({ guide: 'matching lines shown at most' }),
});

const Output = z.object({
  results: z.array(HitResultSchema).optional(),
  total_matches: z.number().int().optional(),
  total_files: z.number().int().optional(),
  files_searched: z.number().int().optional(),
  capped: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
});

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

/** The bytes of an entry as an LF string, for testing an unverified file against a regex. */
function rawText(entry: CachedFile): string {
  let s = entry.memo.get('utf8') as string | undefined;
  if (s === undefined) {
    // as the verified text will be: LF endings, no BOM (so `$` and `^` find the same lines)
    s = entry.bytes.toString('utf8');
    if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
    entry.memo.set('utf8', s);
  }
  return s;
}

function isBinary(entry: CachedFile): boolean {
  let b = entry.memo.get('binary') as boolean | undefined;
  if (b === undefined) {
    b = entry.bytes.indexOf(0) >= 0;
    entry.memo.set('binary', b);
  }
  return b;
}

/** Whether the (possibly unverified) bytes of an entry can match. */
function mayMatch(entry: CachedFile, pattern: SearchPattern, needle: Buffer | undefined): boolean {
  if (needle) return entry.bytes.indexOf(needle) >= 0;
  return matchesAny(rawText(entry), pattern.re);
}

/** The verified entry of a listed file; null when it is gone or the verified read refuses it (a swap). */
function verifiedOrNull(engine: Engine, real: string, entry: CachedFile): CachedFile | null {
  try {
    return verifiedEntry(engine.guard, real, entry);
  } catch (e) {
    if (e instanceof HashlineError && e.code !== 'aborted') return null;
    throw e;
  }
}

interface Tally {
  results: HitResult[];
  shown: number;
  totalHits: number;
  totalFiles: number;
  searched: number;
  binary: number;
  large: string[];
  budgetHit: boolean;
  filesHit: boolean;
}

export const fsSearchTool = defineTool({
  name: 'fs_search',
  family: 'hashline',
  title: 'Search file contents',
  description: [
    'Searches contents: literal, or a JavaScript RegExp with regex: true. Hits are ¶path#TAG headers and `N| text` lines: edit them with fs_edit, no re-read.',
    'Example: {"pattern":"parseConfig(","path":"src","glob":"*.ts"}',
    'A bad regex is an error with its position: fix it.',
  ].join('\n'),
  guide: [
    'Searches file contents under `path` (.gitignore, .git and node_modules skipped; binary files skipped). Each file with hits comes back as an fs_read window: a ¶path#TAG header and `N| text` lines (hits plus `context` lines). Edit straight from it: pass TAG to fs_edit with those line numbers, no re-read needed.',
    'Literal by default; `regex: true` takes JavaScript RegExp syntax. Case: sensitive iff the pattern has an upper-case letter, unless `case_sensitive` is given.',
    'Example: {"pattern": "parseConfig(", "path": "src", "glob": "*.ts", "context": 1}',
    'Capped at `max_results` lines; the last line gives totals and how to narrow. A bad regex is an error with its position: fix it, or search the text literally (`regex: false`).',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const pattern = compileSearchPattern({ pattern: args.pattern, regex: args.regex, caseSensitive: args.case_sensitive });
    const match = args.glob === undefined ? undefined : compileGlob(args.glob);
    const rp = await engine.guard.resolve(args.path, 'read');
    if (!rp.exists) throw new HashlineError('not_found', `\`${rp.display}\` does not exist`, { details: { path: rp.display } });
    const st = lstatSync(rp.real);
    const budget = new ReplyBudget();
    const t: Tally = { results: [], shown: 0, totalHits: 0, totalFiles: 0, searched: 0, binary: 0, large: [], budgetHit: false, filesHit: false };
    const max = args.max_results;
    // every file shown is recorded in the session history, which keeps the most recent files only:
    // show no more than it keeps, so every tag shown can be edited from
    const maxFiles = engine.history.limits.maxPaths;

    const show = (file: HitFile, text: string): void => {
      const src = textLines(text);
      const room = max - t.shown;
      const found = matchLines(text, pattern.re, room + 1);
      const hits = found.lines.filter((n) => n <= src.total);
      if (hits.length === 0) return;
      t.totalFiles++;
      const counted = found.more || hits.length > room ? countHits(text, src.total) : hits.length;
      t.totalHits += counted;
      if (room <= 0 || budget.exhausted || t.results.length >= maxFiles) {
        t.filesHit ||= t.results.length >= maxFiles && room > 0;
        t.budgetHit ||= budget.exhausted && room > 0;
        return;
      }
      const shownHits = hits.slice(0, room);
      const notices = counted > shownHits.length ? [moreMatchesInFile(file.display, hits[room] ?? shownHits[shownHits.length - 1]! + 1, src.total)] : [];
      t.results.push(taggedHits(engine, file, src, shownHits, args.context, budget, notices));
      t.shown += shownHits.length;
    };
    const countHits = (text: string, total: number): number => matchLines(text, pattern.re).lines.filter((n) => n <= total).length;

    if (!st.isDirectory()) {
      const loaded = await loadForParse(engine.guard, rp, call.signal);
      t.searched = 1;
      if (loaded.text.includes('\0')) t.binary++;
      else show({ real: rp.real, display: rp.display, text: loaded.text, tag: loaded.tag, utf8: loaded.utf8 }, loaded.text);
    } else {
      const files = await filesUnder(engine.guard, rp.real, match);
      const needle = pattern.needle === undefined ? undefined : Buffer.from(pattern.needle, 'utf8');
      let slice = performance.now();
      for (const real of files) {
        if (performance.now() - slice > SLICE_MS) {
          await yieldLoop();
          if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
          slice = performance.now();
        }
        let entry = entryFor(real);
        if (!entry) {
          const size = (() => {
            try {
              const s = lstatSync(real);
              return s.isFile() ? s.size : -1;
            } catch {
              return -1;
            }
          })();
          if (size > MAX_CACHED_FILE_BYTES) t.large.push(engine.guard.display(real));
          continue;
        }
        t.searched++;
        // the unverified bytes only decide whether to look closer; what the reply says (hits,
        // counts, the binary note) comes from a verified read, so a file swapped for a link to a
        // blocked one between the walk and the read answers nothing about its content
        // (a file refused at that read is passed over in silence: an error would answer the probe too)
        if (!isBinary(entry) && !mayMatch(entry, pattern, needle)) continue;
        entry = verifiedOrNull(engine, real, entry);
        if (!entry) continue;
        if (isBinary(entry)) {
          t.binary++;
          continue;
        }
        if (!mayMatch(entry, pattern, needle)) continue;
        if (t.shown >= max || budget.exhausted || t.results.length >= maxFiles) {
          t.filesHit ||= t.results.length >= maxFiles && t.shown < max;
          // past the cap: count only (the bytes are not shown)
          const text = rawText(entry);
          const n = countHits(text, textLines(text).total);
          if (n > 0) {
            t.totalFiles++;
            t.totalHits += n;
            t.budgetHit ||= budget.exhausted && t.shown < max;
          }
          continue;
        }
        const d = decodeEntry(entry);
        show({ real, display: engine.guard.display(real), text: d.text, tag: d.tag, utf8: d.utf8 }, d.text);
      }
    }

    const capped = t.totalHits > t.shown;
    const notes: string[] = [];
    if (t.budgetHit) notes.push(replyLimitReached());
    if (t.filesHit) notes.push(fileLimitReached(maxFiles));
    if (t.binary > 0) notes.push(binarySkipped(t.binary));
    if (t.large.length > 0) notes.push(largeSkipped(t.large, MAX_CACHED_FILE_BYTES / (1024 * 1024)));
    notes.push(capped ? searchCapped(max, t.totalHits, t.totalFiles) : searchSummary(t.totalHits, t.totalFiles, t.searched));
    const text = [...t.results.map((r) => (r.warnings ? `${r.content}\n[warning] ${r.warnings}` : r.content)), notes.join('\n')].join('\n\n');
    return {
      structured: { results: t.results, total_matches: t.totalHits, total_files: t.totalFiles, files_searched: t.searched, capped, notes },
      text,
    };
  },
});
