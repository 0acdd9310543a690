// Cold start: spawn the server and connect the SDK client until `tools/list` is answered,
// hashline's shipped bin (`bin/hashline.mjs mcp`, the CLI bundled with one chunk per subcommand)
// against the reference filesystem server; and, to show what each step buys, the unbundled
// dist/cli/main.js and single-file bundles made by scripts/bundle-cli.mjs.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectReference, connectStdio, hashlineCli, type McpSide } from '../lib/mcp.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, type Row, type Workload } from '../lib/types.js';

/**
 * Bundles the built CLI under bench/work (with a package.json beside, for the version). `lazy`
 * bundles an entry that loads only the `mcp` subcommand: what lazy imports in src/cli would give.
 */
function bundle(repo: string, work: string, lazy: boolean, noAjv = false): string | null {
  const dir = path.join(work, 'bundle');
  const out = path.join(dir, 'dist', `${lazy ? 'hashline-mcp-only' : 'hashline'}${noAjv ? '-no-ajv' : ''}.mjs`);
  mkdirSync(path.dirname(out), { recursive: true });
  copyFileSync(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  const args = [path.join(repo, 'scripts/bundle-cli.mjs'), '--out', out];
  if (lazy) {
    const entry = path.join(dir, 'mcp-only-entry.mjs');
    writeFileSync(
      entry,
      `import { mcpCommand } from ${JSON.stringify(path.join(repo, 'dist/cli/mcp-command.js'))};\n` +
        `mcpCommand(process.argv.slice(3)).catch((e) => { process.stderr.write(String(e)); process.exit(2); });\n`,
    );
    args.push('--entry', entry);
  }
  if (noAjv) args.push('--no-ajv');
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
  return r.status === 0 ? out : null;
}

/** The `hashline` bin that package.json ships (built by `prepare`), or null when it is missing. */
function shippedBin(repo: string): string | null {
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  const bin = pkg.bin?.hashline;
  return bin && existsSync(path.join(repo, bin)) ? path.join(repo, bin) : null;
}

async function startToList(connect: () => Promise<McpSide>): Promise<number> {
  let side: McpSide | undefined;
  const ms = await timeMs(async () => {
    side = await connect();
    await side.client.listTools();
  });
  await side?.close();
  return ms;
}

export const coldStart: Workload = {
  id: 'cold-start',
  async run(ctx) {
    const base: Omit<Row, 'status'> = {
      id: 'cold-start',
      title: 'cold start: spawn until tools/list answers',
      issue: 7,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'mcp-server-filesystem',
      goal: { kind: 'ratio', bound: 'max', value: 0.7, text: '≤ 0.7×' },
    };
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...base, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'cold');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'a.txt'), 'a\n');
    const rows: Row[] = [];
    const entries: [Omit<Row, 'status'>, string | null][] = [
      [{ ...base, title: 'cold start: the shipped bin (bin/hashline.mjs) until tools/list answers' }, shippedBin(ctx.opts.repo)],
      [{ ...base, id: 'cold-start-unbundled', title: 'cold start, unbundled (dist/cli/main.js)' }, hashlineCli(ctx.opts.repo)],
      [{ ...base, id: 'cold-start-bundled', title: 'cold start, CLI bundled (scripts/bundle-cli.mjs)' }, bundle(ctx.opts.repo, ctx.opts.work, false)],
      [{ ...base, id: 'cold-start-bundled-lazy', title: 'cold start, bundled, mcp subcommand only' }, bundle(ctx.opts.repo, ctx.opts.work, true)],
      [{ ...base, id: 'cold-start-bundled-lazy-no-ajv', title: 'cold start, as above, without ajv' }, bundle(ctx.opts.repo, ctx.opts.work, true, true)],
    ];
    for (const [row, cli] of entries) {
      if (cli === null) {
        rows.push(failed(row, new Error('bundling failed')));
        continue;
      }
      try {
        const s = await alternate(
          ctx.opts.reps,
          () => startToList(() => connectStdio(process.execPath, [cli, 'mcp', '--root', root], root)),
          () => startToList(() => connectReference(ref, root)),
          1,
        );
        rows.push(finish({ ...row, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } }));
      } catch (e) {
        rows.push(failed(row, e));
      }
    }
    return rows;
  },
};
