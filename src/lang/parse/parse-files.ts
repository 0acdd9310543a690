// Parsed files of a tree for the navigation tools (outlines, references): the files with a grammar
// this machine has and the caller accepts, optionally only those whose bytes hold a needle (tested
// on the warm cache's prefilter bytes, io/read/file-cache.ts), each read again with every check before
// it is decoded and parsed on libuv's threads, a batch at a time, in walk order. The consumer may
// stop early; files after that point are never parsed.

import type { Lang, SgRoot } from '@ast-grep/napi';
import { HashlineError } from '../../core/errors/errors.js';
import { decodeEntry, entryFor, verifiedEntry, type DecodedFile } from '../../io/read/file-cache.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { napi } from '../grammar/napi.js';
import { isAvailable, languageForPath, type LanguageInfo } from '../grammar/registry.js';

/** Files parsed at once. */
const PARSE_BATCH = 16;
/** The event loop is released after this long of synchronous work. */
const SLICE_MS = 8;

export interface ParsedFile {
  real: string;
  display: string;
  lang: LanguageInfo;
  file: DecodedFile;
  root: SgRoot;
}

export interface ParseProblem {
  display: string;
  message: string;
}

export interface ParseFilesOptions {
  /** Keep only files whose bytes hold this. */
  needle?: Buffer | undefined;
  /** Keep only files of grammars for which this holds. */
  accept?: (lang: LanguageInfo) => boolean;
  signal?: AbortSignal | undefined;
}

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

/** The candidates among `reals`: grammar available and accepted, bytes holding the needle. */
async function candidates(guard: PathGuard, reals: readonly string[], options: ParseFilesOptions): Promise<Array<{ real: string; lang: LanguageInfo }>> {
  const byExt = new Map<string, LanguageInfo | null>();
  const out: Array<{ real: string; lang: LanguageInfo }> = [];
  let slice = performance.now();
  for (const real of reals) {
    if (performance.now() - slice > SLICE_MS) {
      await yieldLoop();
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      slice = performance.now();
    }
    const dot = real.lastIndexOf('.');
    const ext = dot > real.lastIndexOf('/') ? real.slice(dot).toLowerCase() : '';
    let lang = byExt.get(ext);
    if (lang === undefined) {
      const l = languageForPath(real);
      lang = l && isAvailable(l) && (options.accept?.(l) ?? true) ? l : null;
      byExt.set(ext, lang);
    }
    if (!lang) continue;
    if (options.needle) {
      const entry = entryFor(real);
      if (!entry || entry.bytes.indexOf(options.needle) < 0) continue;
    }
    out.push({ real, lang });
  }
  return out;
}

/**
 * Parses the candidate files among `reals` in order. Yields each parsed file, or a problem (a
 * file that could not be read or parsed); `total` is the number of candidates.
 */
export async function parseFiles(
  guard: PathGuard,
  reals: readonly string[],
  options: ParseFilesOptions = {},
): Promise<{ total: number; files: AsyncGenerator<ParsedFile | ParseProblem> }> {
  const list = await candidates(guard, reals, options);
  async function* run(): AsyncGenerator<ParsedFile | ParseProblem> {
    for (let at = 0; at < list.length; at += PARSE_BATCH) {
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      const batch = list.slice(at, at + PARSE_BATCH);
      const parsed = await Promise.all(
        batch.map(async ({ real, lang }): Promise<ParsedFile | ParseProblem | null> => {
          const display = guard.display(real);
          try {
            const cached = entryFor(real);
            const entry = cached && verifiedEntry(guard, real, cached);
            if (!entry) return null;
            if (options.needle && entry.bytes.indexOf(options.needle) < 0) return null;
            const file = decodeEntry(entry);
            return { real, display, lang, file, root: await napi().parseAsync(lang.id as Lang, file.text) };
          } catch (e) {
            return { display, message: (e as Error).message };
          }
        }),
      );
      for (const p of parsed) if (p) yield p;
    }
  }
  return { total: list.length, files: run() };
}
