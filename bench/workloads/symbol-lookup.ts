// Symbol lookup across a 10,000-file tree: the first `fs_read {path: dir, symbol}` on a fresh
// server against `ast-grep scan` with a kind+name rule, and a repeated lookup on the running
// server against `rg -l NAME`. Floors, run after each pair: for the first lookup, a fresh Node
// process reading every file and parsing those that hold the name with napi (bench/lib/scan-floor.mjs,
// its module load included, its spawn not); for the repeated one, a bare server replaying the
// reply plus one warm pass over the tree's texts held in memory (an lstat and a search per file).

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { SYMBOL, sourceTree } from '../lib/fixtures.js';
import { startReplay } from '../lib/floors.js';
import { coldLookupMs, warmScanner } from '../lib/scan-floor.mjs';
import { connectHashline, okText, type McpSide } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

const RULE = `id: find-symbol
language: TypeScript
rule:
  kind: function_declaration
  has:
    field: name
    regex: ^${SYMBOL}$
`;

/** Runs a command and returns its stdout; exit 1 with no output (no match) counts as success. */
async function runOut(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await run(cmd, args, { cwd, maxBuffer: 64 << 20 })).stdout;
  } catch (e) {
    const err = e as { code?: number; stdout?: string };
    if (err.code === 1) return err.stdout ?? '';
    throw e;
  }
}

export const symbolLookup: Workload = {
  id: 'symbol-lookup',
  async run(ctx) {
    const n = ctx.opts.quick ? 500 : 10_000;
    const first: Omit<Row, 'status'> = {
      id: 'symbol-first',
      title: `first symbol lookup, ${n}-file tree (fs_read symbol)`,
      issue: 3,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'ast-grep scan (kind+name rule)',
      goal: { kind: 'ratio', bound: 'max', value: 0.15, text: '≤ 0.15×' },
    };
    const again: Omit<Row, 'status'> = {
      id: 'symbol-repeat',
      title: `repeated symbol lookup, ${n}-file tree, warm server`,
      issue: 3,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'rg -l NAME',
      goal: { kind: 'ratio', bound: 'max', value: 1, text: '≤ 1×' },
    };
    if (!ctx.tools.has('fs_read')) return [notBuilt(first, 'fs_read'), notBuilt(again, 'fs_read')];
    const tree = sourceTree(ctx.opts.work, n);
    const rule = path.join(ctx.opts.work, 'symbol-rule.yml');
    writeFileSync(rule, RULE);
    const lookup = (side: McpSide) => side.call('fs_read', { targets: [{ path: '.', symbol: SYMBOL }] });
    const rows: Row[] = [];
    const astGrep = ctx.anchors.astGrep;
    if (!astGrep) rows.push({ ...first, status: 'anchor missing' });
    else {
      try {
        const s = await alternateWithFloor(
          ctx.opts.heavyReps,
          async () => {
            const side = await connectHashline(ctx.opts.repo, tree);
            try {
              return await timeMs(async () => okText(await lookup(side)));
            } finally {
              await side.close();
            }
          },
          () => timeMs(() => runOut(astGrep, ['scan', '--rule', rule, '.'], tree)),
          () => coldLookupMs(tree, SYMBOL),
        );
        rows.push(
          finish({
            ...first,
            status: 'measured',
            hashline: median(s.a),
            anchor: median(s.b),
            samples: { hashline: s.a, anchor: s.b },
            floor: { name: 'a fresh Node process: list the tree, read every file, parse those holding the name with napi (module load counted, spawn not)', value: median(s.f), samples: s.f },
          }),
        );
      } catch (e) {
        rows.push(failed(first, e));
      }
    }
    const rg = ctx.anchors.rg;
    if (!rg) rows.push({ ...again, status: 'anchor missing' });
    else {
      const side = await connectHashline(ctx.opts.repo, tree);
      const replay = await startReplay(ctx.opts.repo, ctx.opts.work, 'symbol-repeat', [await lookup(side)]);
      const scan = warmScanner(tree);
      try {
        const s = await alternateWithFloor(
          ctx.opts.reps,
          () => timeMs(async () => okText(await lookup(side))),
          () => timeMs(() => runOut(rg, ['-l', SYMBOL, '.'], tree)),
          async () => (await replay.callMs()) + scan.passMs((t) => t.includes(SYMBOL)).ms,
          1,
        );
        rows.push(
          finish({
            ...again,
            status: 'measured',
            hashline: median(s.a),
            anchor: median(s.b),
            samples: { hashline: s.a, anchor: s.b },
            floor: { name: `a bare server replaying the reply + one warm pass over the ${scan.files} texts held in memory (lstat and indexOf per file)`, value: median(s.f), samples: s.f },
          }),
        );
      } catch (e) {
        rows.push(failed(again, e));
      } finally {
        await replay.close();
        await side.close();
      }
    }
    return rows;
  },
};
