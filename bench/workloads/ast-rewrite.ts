// A structural rewrite over a 2,000-file tree: hashline `fs_ast_edit` (atomic writes, the default durability)
// against `ast-grep run -p PAT -r OUT -U` on a fresh copy of the same tree, and a check that
// both leave identical bytes. Two trees: files of one 45-line module, and files of six (about 210
// lines), on which ast-grep takes about the 1.2 s the issue quotes for its tree. One untimed round
// first, so both sides read from a warm page cache. The floor, run after each pair, is the sum of
// two parts: writing the changed files (atomic) with nothing parsed, and parsing and matching every
// file on one worker thread per core with nothing read or written (bench/lib/parse-floor.mjs). And the
// scaling of one file's rewrite (10^4 to 10^5 lines, a match every 10 lines): linear or not, beside
// the same ratio for its floor (the parse and match of that file on one thread and its atomic write).

import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { childrenCpuMs, processCpuMs, selfCpuMs } from '../lib/cpu.js';
import { REWRITE, sourceTree } from '../lib/fixtures.js';
import { parseFloorMs, treeTexts } from '../lib/parse-floor.mjs';
import { connectHashline, okText } from '../lib/mcp.js';
import { replaceFloorMs, treeWriteFloorMs } from '../lib/floors.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await files(dir, r)));
    else if (e.isFile() && !e.name.startsWith('.complete')) out.push(r);
  }
  return out.sort();
}

/** Files whose bytes differ between two trees (by relative path). */
async function differing(a: string, b: string): Promise<string[]> {
  const fa = await files(a);
  const fb = new Set(await files(b));
  const out: string[] = [];
  for (const f of fa) {
    if (!fb.delete(f)) out.push(f);
    else if (!(await fsp.readFile(path.join(a, f))).equals(await fsp.readFile(path.join(b, f)))) out.push(f);
  }
  return [...out, ...fb];
}

async function fresh(template: string, dest: string): Promise<void> {
  await fsp.rm(dest, { recursive: true, force: true });
  await run('cp', ['-r', template, dest]);
}

/**
 * The floor under any rewrite of the tree in the default `atomic` mode: ms to replace each file of
 * `dest` named in `rels` by the bytes of the same file under `source` (temporary files created,
 * written and renamed), with no reading or parsing at all. Run on a fresh copy, in the same state
 * of the disk as the two sides.
 */
async function writeFloorMs(source: string, dest: string, rels: readonly string[]): Promise<number> {
  const data = await Promise.all(rels.map((r) => fsp.readFile(path.join(source, r))));
  return treeWriteFloorMs(rels.map((r, i) => ({ target: path.join(dest, r), data: data[i]! })));
}

/** The trees: files of `parts` modules; the id and title of each row. */
const SIZES = [
  { parts: 1, id: 'ast-rewrite', lines: 45 },
  { parts: 6, id: 'ast-rewrite-210', lines: 210 },
] as const;

async function measure(ctx: Parameters<Workload['run']>[0], size: (typeof SIZES)[number]): Promise<Row> {
  const n = ctx.opts.quick ? 200 : 2000;
  const base: Omit<Row, 'status'> = {
    id: size.id,
    title: `rewrite over ${n} files of ${size.lines} lines (fs_ast_edit)`,
    issue: 5,
    unit: 'ms',
    direction: 'lower',
    anchorName: 'ast-grep run -p PAT -r OUT -U',
    goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5×' },
  };
  if (!ctx.tools.has('fs_ast_edit')) return notBuilt(base, 'fs_ast_edit');
  const astGrep = ctx.anchors.astGrep;
  if (!astGrep) return { ...base, status: 'anchor missing' };
  const template = sourceTree(ctx.opts.work, n, size.parts);
  const root = path.join(ctx.opts.work, 'rewrite');
  await fsp.mkdir(root, { recursive: true });
  const h = path.join(root, 'h');
  const a = path.join(root, 'a');
  const f = path.join(root, 'f');
  const floor: number[] = [];
  const parseFloor: number[] = [];
  // CPU ms (all threads) of each run: hashline's server, ast-grep, and the two floors
  const cpu = { hashline: [] as number[], astGrep: [] as number[], write: [] as number[], parse: [] as number[] };
  const cpuOf = async <T>(into: number[], read: () => number, fn: () => Promise<T>): Promise<T> => {
    const before = read();
    const out = await fn();
    into.push(read() - before);
    return out;
  };
  const texts = treeTexts(template);
  const side = await connectHashline(ctx.opts.repo, root);
  let diff: string[] = [];
  let changed = 0;
  try {
    const s = await alternateWithFloor(
      ctx.opts.heavyReps,
      async () => {
        await fresh(template, h);
        return cpuOf(cpu.hashline, () => processCpuMs(side.pid()), () => timeMs(async () => okText(await side.call('fs_ast_edit', { ops: [REWRITE], paths: ['h'], max_files: n + 100 }))));
      },
      async (i) => {
        await fresh(template, a);
        const ms = await cpuOf(cpu.astGrep, childrenCpuMs, () => timeMs(() => run(astGrep, ['run', '-p', REWRITE.pat, '-r', REWRITE.out, '-l', 'ts', '-U', 'a'], { cwd: root, maxBuffer: 64 << 20 })));
        if (i === 0) {
          diff = await differing(h, a);
          changed = (await differing(template, a)).length;
        }
        return ms;
      },
      async () => {
        await fresh(template, f);
        const rels = await differing(template, a);
        const w = await cpuOf(cpu.write, selfCpuMs, () => writeFloorMs(a, f, rels));
        const p = (await cpuOf(cpu.parse, selfCpuMs, () => parseFloorMs(texts, REWRITE.pat, 'A'))).ms;
        floor.push(w);
        parseFloor.push(p);
        return w + p;
      },
      1,
    );
    const row = finish({
      ...base,
      status: 'measured',
      hashline: median(s.a),
      anchor: median(s.b),
      samples: { hashline: s.a, anchor: s.b },
      floor: { name: 'napi parse + match of every file on one worker thread per core (nothing read or written) + the atomic writes of the changed files (nothing parsed), one after the other', value: median(s.f), samples: s.f },
    });
    const anchor = median(s.b);
    const floorMs = median(floor.slice(-ctx.opts.heavyReps));
    const parseMs = median(parseFloor.slice(-ctx.opts.heavyReps));
    const cores = os.availableParallelism();
    const last = (xs: number[]) => median(xs.slice(-ctx.opts.heavyReps));
    const c = { hashline: last(cpu.hashline), astGrep: last(cpu.astGrep), write: last(cpu.write), parse: last(cpu.parse) };
    const floorText =
      `floors: writing the ${changed} changed files (atomic) with nothing read or parsed ${floorMs.toFixed(0)} ms (${(floorMs / anchor).toFixed(2)}x of ast-grep; CPU ${c.write.toFixed(0)} ms); ` +
      `parsing and matching every file with napi on ${cores} worker threads, nothing read or written, ${parseMs.toFixed(0)} ms (${(parseMs / anchor).toFixed(2)}x; CPU ${c.parse.toFixed(0)} ms); ` +
      `the two floors' CPU spread over ${cores} cores ${((c.write + c.parse) / cores).toFixed(0)} ms (${((c.write + c.parse) / cores / anchor).toFixed(2)}x); ` +
      `CPU (all threads): hashline ${c.hashline.toFixed(0)} ms, ast-grep ${c.astGrep.toFixed(0)} ms`;
    row.extra = {
      identicalBytes: diff.length === 0, differingFiles: diff.slice(0, 20), filesChanged: changed,
      durableWriteFloorMs: floorMs, floorSamples: floor, parseFloorMs: parseMs, parseFloorSamples: parseFloor,
      cpuMs: c, cpuSamples: cpu,
    };
    if (diff.length > 0) {
      row.met = false;
      row.note = `${diff.length} files differ from ast-grep's result (e.g. ${diff[0]}); ${floorText}`;
    } else row.note = `identical bytes; ${changed} of ${n} files changed by both; ${floorText}`;
    return row;
  } catch (e) {
    return failed(base, e);
  } finally {
    await side.close();
  }
}

/** A function of `lines` lines, one in ten a `console.log` call (the rewrite's pattern). */
function oneFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i % 10 === 3 ? `  console.log(v${i});` : `  const v${i} = ${i};`);
  return `function f() {\n${out.join('\n')}\n}\n`;
}

/**
 * The scaling of one file's rewrite: p50 ms of fs_ast_edit on a file of 10^4 and 10^5 lines (10^3
 * and 10^4 in quick mode) with a match every 10 lines; linear means x10 lines costs about x10.
 */
async function scaling(ctx: Parameters<Workload['run']>[0]): Promise<Row> {
  const sizes = ctx.opts.quick ? [1_000, 10_000] : [10_000, 100_000];
  const base: Omit<Row, 'status'> = {
    id: 'ast-rewrite-one-file-scaling',
    title: `rewrite of one file, a match every 10 lines: time at ${sizes[1]} lines / at ${sizes[0]} lines`,
    issue: 5,
    unit: '×',
    direction: 'lower',
    anchorName: '— (linear = 10×)',
    goal: { kind: 'absolute', bound: 'max', value: 15, text: '≤ 15× (linear)' },
  };
  if (!ctx.tools.has('fs_ast_edit')) return notBuilt(base, 'fs_ast_edit');
  const root = path.join(ctx.opts.work, 'rewrite-one');
  await fsp.mkdir(root, { recursive: true });
  const side = await connectHashline(ctx.opts.repo, root);
  try {
    const p50: number[] = [];
    const floor50: number[] = [];
    for (const lines of sizes) {
      const text = oneFile(lines);
      const after = text.replace(/console\.log\(/g, 'logger.info(');
      const times: number[] = [];
      const floors: number[] = [];
      for (let i = 0; i < Math.max(3, ctx.opts.heavyReps); i++) {
        await fsp.writeFile(path.join(root, 'one.ts'), text);
        times.push(await timeMs(async () => okText(await side.call('fs_ast_edit', { ops: [REWRITE], paths: ['one.ts'] }))));
        const parse = (await parseFloorMs([text], REWRITE.pat, 'A', 1)).ms;
        floors.push(parse + replaceFloorMs(path.join(root, 'floor-one.ts'), Buffer.from(after)));
      }
      p50.push(median(times));
      floor50.push(median(floors));
    }
    const row = finish({
      ...base,
      status: 'measured',
      hashline: p50[1]! / p50[0]!,
      floor: { name: 'the same ratio for the parse and match of the file (napi, one thread) plus its atomic write', value: floor50[1]! / floor50[0]! },
    });
    row.note = `p50 ms: ${sizes[0]} lines ${p50[0]!.toFixed(0)} (floor ${floor50[0]!.toFixed(0)}), ${sizes[1]} lines ${p50[1]!.toFixed(0)} (floor ${floor50[1]!.toFixed(0)})`;
    row.extra = { sizes, p50, floor50 };
    return row;
  } catch (e) {
    return failed(base, e);
  } finally {
    await side.close();
  }
}

export const astRewrite: Workload = {
  id: 'ast-rewrite',
  async run(ctx) {
    const rows: Row[] = [];
    for (const size of SIZES) rows.push(await measure(ctx, size));
    rows.push(await scaling(ctx));
    return rows;
  },
};
