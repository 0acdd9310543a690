// Content search over the 10,000-file tree of the symbol benchmark: `fs_search` on a warm server
// (one untimed call first) against `rg -n -C 2` with the same pattern, once literal and once as a
// regex, A B A B; then the server's peak RSS. Both sides print every hit (max_results is raised
// above the hit count, the hits lie in fewer than 50 files), with 2 lines of context. Floors, run
// after each pair: a bare server replaying the search's reply plus one warm pass over the tree's
// texts held in memory (an lstat and the same search per file); for the memory, a bare SDK server
// holding every file's bytes of the tree (bench/lib/list-server.mjs --hold).

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SYMBOL, sourceTree } from '../lib/fixtures.js';
import { startReplay } from '../lib/floors.js';
import { connectHashline, connectStdio, okText, type McpSide } from '../lib/mcp.js';
import { warmScanner } from '../lib/scan-floor.mjs';
import { rssOf } from '../lib/ports.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

/** Runs rg and returns its stdout; exit 1 (no match) counts as success. */
async function rgOut(rg: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await run(rg, args, { cwd, maxBuffer: 256 << 20 })).stdout;
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    if (err.code === 1) return err.stdout ?? '';
    throw e;
  }
}

interface Case {
  id: string;
  label: string;
  pattern: string;
  regex: boolean;
}

const CASES: Case[] = [
  // hits in fewer than the 50 files a search shows (the session history's size), so both sides print every hit
  { id: 'search-literal', label: 'literal', pattern: `${SYMBOL}(1`, regex: false },
  { id: 'search-regex', label: 'regex', pattern: `${SYMBOL}\\(\\d*[0-3]\\)`, regex: true },
];

const CONTEXT = 2;

/** The RSS of a bare SDK server holding every file's bytes of `tree` (the floor of a warm cache's memory). */
async function holdingRss(work: string, tree: string): Promise<{ name: string; value?: number }> {
  const list = path.join(work, 'empty-tools-list.json');
  writeFileSync(list, JSON.stringify({ tools: [] }));
  const side = await connectStdio(process.execPath, [fileURLToPath(new URL('../lib/list-server.mjs', import.meta.url)), list, '--hold', tree], work);
  try {
    await side.client.listTools();
    const mem = await rssOf(side.pid()!);
    return { name: "a bare SDK server holding every file's bytes of the tree (VmHWM)", value: mem?.hwm };
  } finally {
    await side.close();
  }
}

export const search: Workload = {
  id: 'search',
  async run(ctx) {
    const n = ctx.opts.quick ? 500 : 10_000;
    const base = (c: Case): Omit<Row, 'status'> => ({
      id: c.id,
      title: `fs_search ${c.label}, ${n}-file tree, context ${CONTEXT}, warm server`,
      issue: 18,
      unit: 'ms',
      direction: 'lower',
      anchorName: `rg -n -C ${CONTEXT}${c.regex ? '' : ' -F'}`,
      goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5×' },
    });
    const rssRow: Omit<Row, 'status'> = {
      id: 'search-rss',
      title: `fs_search over a ${n}-file tree: server peak RSS`,
      issue: 18,
      unit: 'MiB',
      direction: 'lower',
      anchorName: '—',
      goal: { kind: 'absolute', bound: 'max', value: 200, text: '≤ 200 MiB' },
    };
    if (!ctx.tools.has('fs_search')) return [...CASES.map((c) => notBuilt(base(c), 'fs_search')), notBuilt(rssRow, 'fs_search')];
    const rg = ctx.anchors.rg;
    if (!rg) {
      ctx.log('search: ripgrep (rg) is missing; install it with `apt-get install -y ripgrep` to measure these rows');
      return [...CASES.map((c) => ({ ...base(c), status: 'anchor missing' as const, note: 'rg not found: apt-get install -y ripgrep' })), { ...rssRow, status: 'anchor missing', note: 'measured with the rows above' }];
    }
    const tree = sourceTree(ctx.opts.work, n);
    const rows: Row[] = [];
    const side: McpSide = await connectHashline(ctx.opts.repo, tree);
    const scan = warmScanner(tree);
    try {
      for (const c of CASES) {
        const call = () => side.call('fs_search', { pattern: c.pattern, regex: c.regex, context: CONTEXT, max_results: 2000 });
        const rgArgs = ['-n', '-C', String(CONTEXT), ...(c.regex ? [] : ['-F']), '--', c.pattern, '.'];
        try {
          // one untimed call each: page cache and server warm; both must find the same hits
          const sc = (await call()).structuredContent as { total_matches?: number; capped?: boolean };
          const rgHits = (await rgOut(rg, rgArgs, tree)).split('\n').filter((l) => /^[^:]+:\d+:/.test(l)).length;
          if (sc.total_matches !== rgHits || sc.capped) throw new Error(`hit counts differ: fs_search ${sc.total_matches} (capped ${sc.capped}), rg ${rgHits}`);
          const replay = await startReplay(ctx.opts.repo, ctx.opts.work, c.id, [await call()]);
          const re = c.regex ? new RegExp(c.pattern) : null;
          const test = re ? (t: string) => re.test(t) : (t: string) => t.includes(c.pattern);
          let s;
          try {
            s = await alternateWithFloor(
              ctx.opts.reps,
              () => timeMs(async () => okText(await call())),
              () => timeMs(() => rgOut(rg, rgArgs, tree)),
              async () => (await replay.callMs()) + scan.passMs(test).ms,
            );
          } finally {
            await replay.close();
          }
          const row = finish({
            ...base(c),
            status: 'measured',
            hashline: median(s.a),
            anchor: median(s.b),
            samples: { hashline: s.a, anchor: s.b },
            floor: { name: `a bare server replaying the reply + one warm pass over the ${scan.files} texts held in memory (lstat and the same search per file)`, value: median(s.f), samples: s.f },
          });
          row.note = `${rgHits} matching lines; the same pattern and context on both sides; rg is spawned per run (its process start is in its time), fs_search is a call to a running server`;
          rows.push(row);
        } catch (e) {
          rows.push(failed(base(c), e));
        }
      }
      const pid = side.pid();
      const mem = pid === null ? null : await rssOf(pid);
      if (mem === null) rows.push({ ...rssRow, status: 'failed', note: 'no /proc status for the server' });
      else rows.push(finish({ ...rssRow, status: 'measured', hashline: mem.hwm, floor: await holdingRss(ctx.opts.work, tree), note: `VmHWM of the server after ${ctx.opts.reps + 1} searches of each kind (includes start-up); RSS now ${mem.rss.toFixed(1)} MiB` }));
    } finally {
      await side.close();
    }
    return rows;
  },
};
