// Edits over MCP stdio. A 3-hunk edit on a 2,000-line file: hashline `fs_edit` against the
// reference server's `edit_file` making the same change (p50). And the scaling curve of one
// 1,000-hunk edit on files of 10^3 to 10^5 lines (linear means ×10 lines costs at most ~×10).
// The 3-hunk row's note gives the floor under any durable edit here: a server replaying hashline's
// recorded reply (bench/lib/replay-server.mjs) plus one durable replace of the file's bytes (temp
// file, write, fsync, rename, fsync of the directory) timed in the bench process.

import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { linesText, textLine } from '../lib/fixtures.js';
import { connectHashline, connectReference, connectStdio, okText, type McpSide } from '../lib/mcp.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const HUNK_LINES = [10, 1000, 1990];

function firstResult(r: CallToolResult): { file_hash: string } {
  okText(r);
  const sc = r.structuredContent as { results?: { file_hash: string }[] } | undefined;
  const first = sc?.results?.[0];
  if (!first?.file_hash) throw new Error(`no file_hash in result: ${JSON.stringify(sc).slice(0, 200)}`);
  return first;
}

async function readTag(side: McpSide, rel: string): Promise<string> {
  return firstResult(await side.call('fs_read', { targets: [{ path: rel, line_range: '1-1' }] })).file_hash;
}

/** p50 of `reps` durable replaces of `file` with its own bytes, as an atomic writer makes them. */
function durableReplaceMs(file: string, reps: number): number {
  const bytes = readFileSync(file);
  const dir = path.dirname(file);
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    const tmp = `${file}.floor-tmp`;
    const fd = openSync(tmp, 'wx', 0o644);
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, file);
    const d = openSync(dir, 'r');
    fsyncSync(d);
    closeSync(d);
    times.push(performance.now() - t);
  }
  return median(times);
}

export const edit: Workload = {
  id: 'edit',
  async run(ctx) {
    const three: Omit<Row, 'status'> = {
      id: 'edit-3-hunks',
      title: '3-hunk edit of a 2,000-line file (fs_edit), p50',
      issue: 4,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'edit_file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.25, text: '≤ 0.25×' },
    };
    const scale: Omit<Row, 'status'> = {
      id: 'edit-1000-hunks-scaling',
      title: '1,000-hunk edit: time at 10^5 lines / at 10^4 lines',
      issue: 4,
      unit: '×',
      direction: 'lower',
      anchorName: '— (linear = 10×)',
      goal: { kind: 'absolute', bound: 'max', value: 15, text: '≤ 15× (linear)' },
    };
    if (!ctx.tools.has('fs_edit') || !ctx.tools.has('fs_read')) return [notBuilt(three, 'fs_edit'), notBuilt(scale, 'fs_edit')];
    const ref = ctx.anchors.referenceServer;
    const root = path.join(ctx.opts.work, 'edit');
    mkdirSync(root, { recursive: true });
    const rows: Row[] = [];
    const a = await connectHashline(ctx.opts.repo, root);
    try {
      if (!ref) rows.push({ ...three, status: 'anchor missing' });
      else {
        const b = await connectReference(ref, root);
        try {
          writeFileSync(path.join(root, 'h.ts'), linesText(2000));
          const bFile = path.join(root, 'r.ts');
          writeFileSync(bFile, linesText(2000));
          let tag = await readTag(a, 'h.ts');
          const current = new Map(HUNK_LINES.map((n) => [n, textLine(n)]));
          const s = await alternate(
            ctx.opts.reps * 5,
            (i) =>
              timeMs(async () => {
                const ops = HUNK_LINES.map((n) => `replace ${n}:\n+${textLine(n, `h${i} `)}`).join('\n');
                tag = firstResult(await a.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: tag, ops }] })).file_hash;
              }),
            (i) =>
              timeMs(async () => {
                const edits = HUNK_LINES.map((n) => {
                  const next = textLine(n, `r${i} `);
                  const e = { oldText: current.get(n)!, newText: next };
                  current.set(n, next);
                  return e;
                });
                okText(await b.call('edit_file', { path: bFile, edits }));
              }),
            3,
          );
          const row = finish({ ...three, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } });
          // the floor: the same reply replayed with no work, plus one durable replace of the file
          const reply = path.join(ctx.opts.work, 'edit-reply.json');
          const ops = HUNK_LINES.map((n) => `replace ${n}:\n+${textLine(n, 'floor ')}`).join('\n');
          const last = await a.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: tag, ops }] });
          tag = firstResult(last).file_hash;
          writeFileSync(reply, JSON.stringify(last));
          const floor = await connectStdio(process.execPath, [fileURLToPath(new URL('../lib/replay-server.mjs', import.meta.url)), reply], ctx.opts.repo);
          try {
            const replay: number[] = [];
            for (let i = 0; i < ctx.opts.reps * 5; i++) replay.push(await timeMs(async () => okText(await floor.call('replay', {}))));
            const write = durableReplaceMs(path.join(root, 'h.ts'), ctx.opts.reps * 5);
            const sum = median(replay) + write;
            row.note = `floor: replaying the reply ${median(replay).toFixed(2)} ms + one durable replace ${write.toFixed(2)} ms = ${sum.toFixed(2)} ms, ${(sum / median(s.b)).toFixed(2)}x of the reference`;
            row.extra = { replayMs: median(replay), durableReplaceMs: write };
          } finally {
            await floor.close();
          }
          rows.push(row);
        } catch (e) {
          rows.push(failed(three, e));
        } finally {
          await b.close();
        }
      }
      try {
        const sizes = ctx.opts.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
        const curve: Record<string, number> = {};
        for (const lines of sizes) {
          const rel = `scale-${lines}.ts`;
          const times: number[] = [];
          for (let r = 0; r < Math.max(2, ctx.opts.heavyReps); r++) {
            writeFileSync(path.join(root, rel), linesText(lines));
            const tag = await readTag(a, rel);
            const step = lines / 1000;
            const ops = Array.from({ length: 1000 }, (_, k) => `replace ${k * step + 1}:\n+${textLine(k * step + 1, `s${r} `)}`).join('\n');
            times.push(await timeMs(async () => firstResult(await a.call('fs_edit', { targets: [{ path: rel, file_hash: tag, ops }] }))));
          }
          curve[String(lines)] = median(times);
        }
        const hi = sizes[sizes.length - 1]!;
        const lo = sizes[sizes.length - 2]!;
        rows.push(
          finish({
            ...scale,
            title: `1,000-hunk edit: time at ${hi} lines / at ${lo} lines`,
            status: 'measured',
            hashline: curve[String(hi)]! / curve[String(lo)]!,
            extra: { curveMs: curve },
            note: `curve (ms): ${Object.entries(curve).map(([k, v]) => `${k} lines ${v.toFixed(1)}`).join(', ')}`,
          }),
        );
      } catch (e) {
        rows.push(failed(scale, e));
      }
    } finally {
      await a.close();
    }
    return rows;
  },
};
