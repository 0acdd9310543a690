// Cold start: spawn the server and connect the SDK client until `tools/list` is answered (every
// tool of both families and the navigation tools: the default selection), hashline's shipped bin
// (`bin/hashline.mjs mcp`, the CLI bundled with one chunk per subcommand) and the unbundled
// dist/cli/main.js, against the reference filesystem server. Floor, run after each pair: a bare SDK
// server answering tools/list with hashline's recorded list (bench/lib/list-server.mjs), bundled
// the way the shipped bin is (scripts/bundle-cli.mjs --no-ajv). And the idle RSS of each after
// tools/list, from the same starts.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectReference, connectStdio, hashlineCli, shippedBin, type McpSide } from '../lib/mcp.js';
import { rssOf } from '../lib/ports.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, REPORT, type Row, type Workload } from '../lib/types.js';

/** bench/lib/list-server.mjs bundled as the shipped bin is (one minified file, no ajv), under bench/work. */
function bundledListServer(repo: string, work: string): string {
  const dir = path.join(work, 'bundle');
  const out = path.join(dir, 'dist', 'list-server.mjs');
  mkdirSync(path.dirname(out), { recursive: true });
  copyFileSync(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  const r = spawnSync(process.execPath, [path.join(repo, 'scripts/bundle-cli.mjs'), '--out', out, '--entry', path.join(repo, 'bench/lib/list-server.mjs'), '--no-ajv'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`bundling the floor server failed: ${r.stderr.slice(0, 300)}`);
  return out;
}

interface Start {
  ms: number;
  rss: number;
}

async function startToList(connect: () => Promise<McpSide>, expect?: number): Promise<Start> {
  let side: McpSide | undefined;
  try {
    let tools = 0;
    const ms = await timeMs(async () => {
      side = await connect();
      tools = (await side.client.listTools()).tools.length;
    });
    if (expect !== undefined && tools !== expect) throw new Error(`listed ${tools} tools, expected ${expect}`);
    const mem = await rssOf(side!.pid()!);
    return { ms, rss: mem?.rss ?? Number.NaN };
  } finally {
    await side?.close();
  }
}

const FLOOR = 'a bare SDK server answering tools/list with the same list, bundled as the bin is';

export const coldStart: Workload = {
  id: 'cold-start',
  async run(ctx) {
    const base: Omit<Row, 'status'> = {
      id: 'cold-start',
      title: 'cold start: the shipped bin (bin/hashline.mjs) until tools/list answers',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'mcp-server-filesystem',
      goal: { kind: 'ratio', bound: 'max', value: 0.7, text: '≤ 0.7×' },
    };
    const rssRow: Omit<Row, 'status'> = {
      id: 'idle-rss',
      title: 'idle RSS of `hashline mcp` (shipped bin) after tools/list',
      issue: 22,
      unit: 'MiB',
      direction: 'lower',
      anchorName: 'mcp-server-filesystem',
      goal: REPORT,
    };
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...base, status: 'anchor missing' }, { ...rssRow, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'cold');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const rows: Row[] = [];
    const shipped = shippedBin(ctx.opts.repo);
    const bin = existsSync(shipped) ? shipped : null;
    const entries: [Omit<Row, 'status'>, string | null][] = [
      [base, bin],
      [{ ...base, id: 'cold-start-unbundled', title: 'cold start, unbundled (dist/cli/main.js)', goal: REPORT }, hashlineCli(ctx.opts.repo)],
    ];
    let floorServer: string;
    let count: number;
    try {
      // the floor lists what hashline lists
      const side = await connectStdio(process.execPath, [hashlineCli(ctx.opts.repo), 'mcp', '--root', root], root);
      const list = await side.client.listTools();
      await side.close();
      count = list.tools.length;
      const listFile = path.join(ctx.opts.work, 'tools-list.json');
      writeFileSync(listFile, JSON.stringify(list));
      floorServer = bundledListServer(ctx.opts.repo, ctx.opts.work);
      const floorArgs = [floorServer, listFile];
      const floor = () => startToList(() => connectStdio(process.execPath, floorArgs, root), count);
      for (const [row, cli] of entries) {
        if (cli === null) {
          rows.push(failed(row, new Error('the shipped bin is missing (npm run build makes it)')));
          continue;
        }
        const mem = { a: [] as number[], b: [] as number[], f: [] as number[] };
        const keep = (into: number[]) => (s: Start) => {
          into.push(s.rss);
          return s.ms;
        };
        const s = await alternateWithFloor(
          ctx.opts.reps,
          () => startToList(() => connectStdio(process.execPath, [cli, 'mcp', '--root', root], root), count).then(keep(mem.a)),
          () => startToList(() => connectReference(ref, root)).then(keep(mem.b)),
          () => floor().then(keep(mem.f)),
          1,
        );
        rows.push(
          finish({
            ...row,
            status: 'measured',
            hashline: median(s.a),
            anchor: median(s.b),
            samples: { hashline: s.a, anchor: s.b },
            floor: { name: FLOOR, value: median(s.f), samples: s.f },
            note: `${count} tools listed; the floor is ${(median(s.f) / median(s.b)).toFixed(2)}x of the reference`,
          }),
        );
        if (row === base) {
          rows.push(
            finish({
              ...rssRow,
              status: 'measured',
              hashline: median(mem.a.slice(-ctx.opts.reps)),
              anchor: median(mem.b.slice(-ctx.opts.reps)),
              floor: { name: `${FLOOR} (its RSS at the same point)`, value: median(mem.f.slice(-ctx.opts.reps)) },
              note: 'VmRSS read from /proc right after tools/list was answered, in the cold-start runs above',
            }),
          );
        }
      }
    } catch (e) {
      return [failed(base, e), failed(rssRow, e)];
    }
    return rows;
  },
};
