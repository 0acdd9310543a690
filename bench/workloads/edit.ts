// Edits over MCP stdio. A 3-hunk edit on a 2,000-line file (atomic, history on): hashline
// `fs_edit` against the reference server's `edit_file` making the same change (p50). Its floor, run
// after each pair: a bare server replaying hashline's recorded reply, one atomic replace of the
// same bytes (temp file, write, rename: the default `atomic` durability) and one history commit (one
// SQLite transaction storing them). And the scaling curve of one 1,000-hunk edit on files of 10^3
// to 10^5 lines (linear means ×10 lines costs at most ~×10), beside the same curve of its floor.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { linesText, textLine } from '../lib/fixtures.js';
import { replaceFloorMs, HistoryCommitFloor, startReplay, type Replay } from '../lib/floors.js';
import { connectHashline, connectReference, okText, type McpSide } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const HUNK_LINES = [10, 1000, 1990];

export function firstResult(r: CallToolResult): { file_hash: string } {
  okText(r);
  const sc = r.structuredContent as { results?: { file_hash: string }[] } | undefined;
  const first = sc?.results?.[0];
  if (!first?.file_hash) throw new Error(`no file_hash in result: ${JSON.stringify(sc).slice(0, 200)}`);
  return first;
}

async function readTag(side: McpSide, rel: string): Promise<string> {
  return firstResult(await side.call('fs_read', { targets: [{ path: rel, line_range: '1-1' }] })).file_hash;
}

export const EDIT_FLOOR = 'a bare server replaying the reply + one atomic replace of the same bytes (the default durability) + one history commit (one SQLite transaction) of them';

async function threeHunks(ctx: Parameters<Workload['run']>[0], a: McpSide, root: string, base: Omit<Row, 'status'>): Promise<Row> {
  const ref = ctx.anchors.referenceServer;
  if (!ref) return { ...base, status: 'anchor missing' };
  const b = await connectReference(ref, root);
  const commits = new HistoryCommitFloor(ctx.opts.work);
  let replay: Replay | undefined;
  try {
    writeFileSync(path.join(root, 'h.ts'), linesText(2000));
    const bFile = path.join(root, 'r.ts');
    writeFileSync(bFile, linesText(2000));
    let tag = await readTag(a, 'h.ts');
    const current = new Map(HUNK_LINES.map((n) => [n, textLine(n)]));
    // the floor's reply: one edit's recorded reply (the same shape and size as the timed ones)
    const ops0 = HUNK_LINES.map((n) => `replace ${n}:\n+${textLine(n, 'h0 ')}`).join('\n');
    const first = await a.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: tag, ops: ops0 }] });
    tag = firstResult(first).file_hash;
    replay = await startReplay(ctx.opts.repo, ctx.opts.work, 'edit', [first]);
    const floorFile = path.join(root, 'f.ts');
    writeFileSync(floorFile, linesText(2000));
    const floorBytes = readFileSync(floorFile);
    const parts = { replay: [] as number[], write: [] as number[], commit: [] as number[] };
    const s = await alternateWithFloor(
      ctx.opts.reps * 5,
      (i) =>
        timeMs(async () => {
          const ops = HUNK_LINES.map((n) => `replace ${n}:\n+${textLine(n, `h${i + 1} `)}`).join('\n');
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
      async () => {
        const r = await replay!.callMs();
        const w = replaceFloorMs(floorFile, floorBytes);
        const c = commits.commitMs(floorBytes);
        parts.replay.push(r);
        parts.write.push(w);
        parts.commit.push(c);
        return r + w + c;
      },
      3,
    );
    const row = finish({
      ...base,
      status: 'measured',
      hashline: median(s.a),
      anchor: median(s.b),
      samples: { hashline: s.a, anchor: s.b },
      floor: { name: EDIT_FLOOR, value: median(s.f), samples: s.f, goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5×' } },
    });
    const durable = await fsyncMode(ctx, root, replay);
    row.note = `floor parts (p50): replay ${median(parts.replay).toFixed(2)} ms, atomic replace ${median(parts.write).toFixed(2)} ms, history commit ${median(parts.commit).toFixed(2)} ms; the floor is ${(median(s.f) / median(s.b)).toFixed(2)}x of the reference (which does not fsync); ${durable.note}`;
    row.extra = { floorParts: parts, fsync: durable.extra };
    return row;
  } catch (e) {
    return failed(base, e);
  } finally {
    commits.close();
    await replay?.close();
    await b.close();
  }
}

/**
 * The same 3-hunk edit with the server in `--durability fsync`, alternated with its durable floor
 * (the replay, a replace with the file's and directory's flushes, a commit with synchronous=FULL).
 */
async function fsyncMode(ctx: Parameters<Workload['run']>[0], root: string, replay: Replay): Promise<{ note: string; extra: { hashline: number; floor: number } }> {
  const a = await connectHashline(ctx.opts.repo, root, ['--durability', 'fsync']);
  const commits = new HistoryCommitFloor(ctx.opts.work, 'fsync');
  try {
    writeFileSync(path.join(root, 'hf.ts'), linesText(2000));
    const floorFile = path.join(root, 'ff.ts');
    writeFileSync(floorFile, linesText(2000));
    const floorBytes = readFileSync(floorFile);
    let tag = await readTag(a, 'hf.ts');
    const s = await alternateWithFloor(
      ctx.opts.reps * 2,
      (i) =>
        timeMs(async () => {
          const ops = HUNK_LINES.map((n) => `replace ${n}:\n+${textLine(n, `f${i} `)}`).join('\n');
          tag = firstResult(await a.call('fs_edit', { targets: [{ path: 'hf.ts', file_hash: tag, ops }] })).file_hash;
        }),
      async () => 0,
      async () => (await replay.callMs()) + replaceFloorMs(floorFile, floorBytes, 'fsync') + commits.commitMs(floorBytes),
      1,
    );
    const h = median(s.a);
    const f = median(s.f);
    return { note: `fsync mode: ${h.toFixed(2)} ms against its durable floor ${f.toFixed(2)} ms (${(h / f).toFixed(2)}x)`, extra: { hashline: h, floor: f } };
  } finally {
    commits.close();
    await a.close();
  }
}

async function scaling(ctx: Parameters<Workload['run']>[0], a: McpSide, root: string, base: Omit<Row, 'status'>): Promise<Row> {
  const commits = new HistoryCommitFloor(ctx.opts.work);
  try {
    const sizes = ctx.opts.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
    const curve: Record<string, number> = {};
    const floorCurve: Record<string, number> = {};
    for (const lines of sizes) {
      const rel = `scale-${lines}.ts`;
      const times: number[] = [];
      const floors: number[] = [];
      for (let r = 0; r < Math.max(2, ctx.opts.heavyReps); r++) {
        writeFileSync(path.join(root, rel), linesText(lines));
        const tag = await readTag(a, rel);
        const step = lines / 1000;
        const ops = Array.from({ length: 1000 }, (_, k) => `replace ${k * step + 1}:\n+${textLine(k * step + 1, `s${r} `)}`).join('\n');
        times.push(await timeMs(async () => firstResult(await a.call('fs_edit', { targets: [{ path: rel, file_hash: tag, ops }] }))));
        const bytes = readFileSync(path.join(root, rel));
        floors.push(replaceFloorMs(path.join(root, `floor-${rel}`), bytes) + commits.commitMs(bytes));
      }
      curve[String(lines)] = median(times);
      floorCurve[String(lines)] = median(floors);
    }
    const hi = String(sizes[sizes.length - 1]!);
    const lo = String(sizes[sizes.length - 2]!);
    return finish({
      ...base,
      title: `1,000-hunk edit: time at ${hi} lines / at ${lo} lines`,
      status: 'measured',
      hashline: curve[hi]! / curve[lo]!,
      floor: { name: 'the same ratio for one atomic replace + one history commit of the file at both sizes', value: floorCurve[hi]! / floorCurve[lo]! },
      extra: { curveMs: curve, floorCurveMs: floorCurve },
      note: `curve (ms): ${Object.entries(curve).map(([k, v]) => `${k} lines ${v.toFixed(1)} (floor ${floorCurve[k]!.toFixed(1)})`).join(', ')}`,
    });
  } catch (e) {
    return failed(base, e);
  } finally {
    commits.close();
  }
}

export const edit: Workload = {
  id: 'edit',
  async run(ctx) {
    const three: Omit<Row, 'status'> = {
      id: 'edit-3-hunks',
      title: '3-hunk edit of a 2,000-line file (fs_edit, atomic, history on), p50',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'edit_file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.6, text: '≤ 0.6×' },
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
    const root = path.join(ctx.opts.work, 'edit');
    mkdirSync(root, { recursive: true });
    const a = await connectHashline(ctx.opts.repo, root);
    try {
      return [await threeHunks(ctx, a, root, three), await scaling(ctx, a, root, scale)];
    } finally {
      await a.close();
    }
  },
};
