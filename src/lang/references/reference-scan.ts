// The reference check of a delete batch: which files under the root import the files about to be
// deleted, with the line of each import. The root is inventoried once (no links followed, .git and
// node_modules skipped, files the read policy refuses never read); a file is a candidate when its language can import a target and its bytes hold the
// target's module name (lang/references/import-targets.ts); each candidate is parsed at most once for the
// whole batch (its imports are kept with the warm cache's entry, so an unchanged file is not parsed
// again by a later batch) and its imports resolved against every target. Imports from files the same batch deletes do not
// count. `.gitignore`d files are scanned too (io/tree/reference-files.ts); files the read policy
// refuses cannot be, and are counted per target (the delete then refuses unless forced). What else
// keeps a target's scan from being proven complete is reported per target: a language
// without an import scanner here, a candidate whose grammar is not installed or that could not be
// read, a Go package without a readable go.mod, a Rust crate root.

import type { Lang } from '@ast-grep/napi';
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../../core/errors/errors.js';
import { isWithin } from '../../core/config/path-policy.js';
import { parseDocAndText } from '../../core/text/text-doc.js';
import { entryFor, MAX_CACHED_FILE_BYTES } from '../../io/read/file-cache.js';
import { findUp, goImportPath, goPackageFiles } from '../../io/tree/module-roots.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { readVerifiedSync } from '../../io/read/read-verified-sync.js';
import { referenceFiles } from '../../io/tree/reference-files.js';
import { candidatesOf, familiesFor, names, needleFor, type ResolveContext, type Target } from './import-targets.js';
import { importFamily, importsOf, type ImportFamily, type ImportRef } from './imports.js';
import { napi } from '../grammar/napi.js';
import { parseFiles, type ParsedFile } from '../parse/parse-files.js';
import { isAvailable, languageForPath, type LanguageInfo } from '../grammar/registry.js';

/** Languages with a module system this scan does not read: their files' importers cannot be found. */
const UNSCANNED = new Set(['bash', 'c', 'cpp', 'csharp', 'dart', 'elixir', 'haskell', 'java', 'kotlin', 'lua', 'php', 'ruby', 'scala', 'swift']);
/** Candidates larger than the file cache takes are read (and parsed) up to this size. */
const MAX_SCANNED_BYTES = 32 * 1024 * 1024;
const SLICE_MS = 8;

export interface Importer {
  filePath: string;
  line: number;
}

export interface TargetReport {
  importers: Importer[];
  /** Why the scan of this target cannot be proven complete (empty: it can). */
  unprovable: string[];
  /** Files under the root that could import this target but the read policy refuses: not scanned, never named. */
  readBlocked: number;
}

export interface ScanReport {
  /** By the target's real path. */
  targets: Map<string, TargetReport>;
  /** Files parsed (each at most once per scan). */
  parsed: number;
}

interface Spec {
  target: Target;
  family: ImportFamily;
  needle: Buffer;
  underDir: string | null;
}

interface Candidate {
  real: string;
  display: string;
  lang: LanguageInfo;
  family: ImportFamily;
  specs: Spec[];
}

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

/** The target's scan specs (families and needles), or the reasons it cannot be scanned. */
function specsOf(guard: PathGuard, real: string, deleting: ReadonlySet<string>, report: TargetReport): Spec[] {
  const lang = languageForPath(real);
  if (lang && UNSCANNED.has(lang.id)) report.unprovable.push(`no import scanner for ${lang.id} files here`);
  if (path.basename(real) === 'lib.rs') report.unprovable.push('a Rust crate root is used by other crates through Cargo.toml, which is not scanned');
  const target: Target = { real };
  const specs: Spec[] = [];
  for (const family of familiesFor(real)) {
    if (family === 'go') {
      if (real.endsWith('_test.go')) continue;
      // only the last Go file of a package can break an import of the package
      if (goPackageFiles(path.dirname(real)).some((f) => f !== real && !deleting.has(f))) continue;
      const ip = goImportPath(guard, path.dirname(real));
      if (ip === 'missing' || ip === 'unreadable') {
        report.unprovable.push(ip === 'missing' ? 'no go.mod above the package, so its import path is unknown' : 'the go.mod above the package cannot be read');
        continue;
      }
      target.goImportPath = ip;
    }
    const { needle, underDir } = needleFor(real, family, target.goImportPath);
    if (needle === '') continue;
    specs.push({ target, family, needle: Buffer.from(needle), underDir: underDir ? path.dirname(real) : null });
  }
  return specs;
}

/** The bytes of a file to test against the needles: the warm cache, or a verified read of a larger file. */
function bytesOf(guard: PathGuard, real: string, display: string): Buffer | null | 'too_large' {
  const cached = entryFor(real);
  if (cached) return cached.bytes;
  let size: number;
  try {
    size = lstatSync(real).size;
  } catch {
    return null;
  }
  if (size <= MAX_CACHED_FILE_BYTES) return null; // not a regular file, or gone
  if (size > MAX_SCANNED_BYTES) return 'too_large';
  try {
    return readVerifiedSync(guard, real, display, MAX_SCANNED_BYTES)?.bytes ?? null;
  } catch {
    return null;
  }
}

const IMPORTS_MEMO = 'imports';

/** The imports found in a verified cache entry's bytes by an earlier scan (the entry is dropped when the file changes). */
function memoImports(real: string): ImportRef[] | undefined {
  const e = entryFor(real);
  return e?.verified ? (e.memo.get(IMPORTS_MEMO) as ImportRef[] | undefined) : undefined;
}

/** Keeps the imports of a parsed file with its cache entry, when the entry still holds the text that was parsed. */
function rememberImports(real: string, file: ParsedFile['file'], refs: ImportRef[]): void {
  const e = entryFor(real);
  if (e?.verified && e.decoded === file) e.memo.set(IMPORTS_MEMO, refs);
}

export async function scanReferences(
  guard: PathGuard,
  targets: readonly string[],
  options: { deleting: ReadonlySet<string>; signal?: AbortSignal | undefined },
): Promise<ScanReport> {
  const reports = new Map<string, TargetReport>(targets.map((t) => [t, { importers: [], unprovable: [], readBlocked: 0 }]));
  const specs = targets.flatMap((t) => specsOf(guard, t, options.deleting, reports.get(t)!));
  const byFamily = new Map<ImportFamily, Spec[]>();
  for (const s of specs) byFamily.set(s.family, [...(byFamily.get(s.family) ?? []), s]);
  const candidates: Candidate[] = [];
  const large: Array<Candidate & { bytes: Buffer }> = [];
  let slice = performance.now();
  const familyOf = (real: string) => {
    const lang = languageForPath(real);
    const family = lang && importFamily(lang);
    return family && byFamily.has(family) ? family : undefined;
  };
  const inventory = byFamily.size === 0 ? { files: [], refused: new Map<string, number>() } : await referenceFiles(guard, guard.realRoot, familyOf, options.signal);
  // files the scan may not read leave it no proof for every target they could import
  for (const [family, n] of inventory.refused) for (const s of byFamily.get(family as ImportFamily) ?? []) reports.get(s.target.real)!.readBlocked += n;
  for (const real of inventory.files) {
    if (performance.now() - slice > SLICE_MS) {
      await yieldLoop();
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted: nothing was deleted');
      slice = performance.now();
    }
    if (options.deleting.has(real)) continue;
    const lang = languageForPath(real);
    const family = lang && importFamily(lang);
    const mine = family ? byFamily.get(family) : undefined;
    if (!lang || !family || !mine) continue;
    const display = guard.display(real);
    const bytes = bytesOf(guard, real, display);
    if (bytes === null) continue;
    const hit = mine.filter((s) => bytes === 'too_large' || (s.underDir !== null && isWithin(real, s.underDir)) || bytes.indexOf(s.needle) >= 0);
    if (hit.length === 0) continue;
    const unprovable = (why: string) => {
      for (const s of hit) reports.get(s.target.real)!.unprovable.push(`${display}: ${why}`);
    };
    if (bytes === 'too_large') unprovable(`larger than ${MAX_SCANNED_BYTES} bytes, not scanned`);
    else if (!isAvailable(lang)) unprovable(`the ${lang.id} grammar is not installed`);
    else if (bytes.length > MAX_CACHED_FILE_BYTES) large.push({ real, display, lang, family, specs: hit, bytes });
    else candidates.push({ real, display, lang, family, specs: hit });
  }
  const rustRoots = new Map<string, string | null>();
  const ctx: ResolveContext = {
    rustSrcRoot(file) {
      const dir = path.dirname(file);
      if (!rustRoots.has(dir)) {
        const crate = findUp(dir, 'Cargo.toml', guard.realRoot);
        rustRoots.set(dir, crate === null ? null : path.join(crate, 'src'));
      }
      return rustRoots.get(dir)!;
    },
  };
  const record = (c: Candidate, refs: ImportRef[]) => {
    for (const ref of refs) {
      const cands = candidatesOf(ref, c.real, c.family, ctx);
      for (const s of c.specs) {
        if (s.target.real !== c.real && names(cands, s.target)) reports.get(s.target.real)!.importers.push({ filePath: c.display, line: ref.line });
      }
    }
  };
  let parsed = 0;
  const toParse: Candidate[] = [];
  for (const c of candidates) {
    const known = memoImports(c.real);
    if (known) record(c, known);
    else toParse.push(c);
  }
  const byDisplay = new Map(toParse.map((c) => [c.display, c]));
  const { files } = await parseFiles(guard, toParse.map((c) => c.real), { signal: options.signal });
  for await (const p of files) {
    const c = byDisplay.get(p.display);
    if (!c) continue;
    byDisplay.delete(p.display);
    if ('root' in p) {
      parsed++;
      const refs = importsOf(c.lang, p.root, p.file.text);
      rememberImports(c.real, p.file, refs);
      record(c, refs);
    } else {
      for (const s of c.specs) reports.get(s.target.real)!.unprovable.push(`${c.display}: could not be read (${p.message})`);
    }
  }
  // a candidate parseFiles passed over (gone, or no longer readable as it was) was not scanned
  for (const c of byDisplay.values()) for (const s of c.specs) reports.get(s.target.real)!.unprovable.push(`${c.display}: changed or vanished while scanned`);
  for (const c of large) {
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted: nothing was deleted');
    const text = parseDocAndText(c.bytes).text;
    parsed++;
    record(c, importsOf(c.lang, await napi().parseAsync(c.lang.id as Lang, text), text));
  }
  for (const r of reports.values()) {
    const seen = new Set<string>();
    r.importers = r.importers
      .filter((i) => !seen.has(`${i.filePath}:${i.line}`) && seen.add(`${i.filePath}:${i.line}`))
      .sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.line - b.line));
  }
  return { targets: reports, parsed };
}
