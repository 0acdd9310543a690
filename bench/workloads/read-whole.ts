// A whole read of a 2,000-line file over MCP stdio: hashline `fs_read` against the reference
// server's `read_text_file`, both driven by the same SDK client; p50 of many calls. The note adds
// the transport floor: a server that replays hashline's recorded reply and does nothing else
// (bench/lib/replay-server.mjs), against the reference in the same way.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linesText } from '../lib/fixtures.js';
import { connectHashline, connectReference, connectStdio, okText } from '../lib/mcp.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

export const readWhole: Workload = {
  id: 'read-whole',
  async run(ctx) {
    const base: Omit<Row, 'status'> = {
      id: 'read-whole-2000',
      title: 'whole read of a 2,000-line file (fs_read), p50',
      issue: 3,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'read_text_file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.25, text: '≤ 0.25×' },
    };
    if (!ctx.tools.has('fs_read')) return [notBuilt(base, 'fs_read')];
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...base, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'read');
    mkdirSync(root, { recursive: true });
    const file = path.join(root, 'read2000.ts');
    writeFileSync(file, linesText(2000));
    const a = await connectHashline(ctx.opts.repo, root);
    const b = await connectReference(ref, root);
    let floor: Awaited<ReturnType<typeof connectStdio>> | undefined;
    try {
      const reply = path.join(ctx.opts.work, 'read-whole-reply.json');
      writeFileSync(reply, JSON.stringify(await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] })));
      floor = await connectStdio(process.execPath, [fileURLToPath(new URL('../lib/replay-server.mjs', import.meta.url)), reply], ctx.opts.repo);
      const s = await alternate(
        ctx.opts.reps * 5,
        () => timeMs(async () => okText(await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] }))),
        () => timeMs(async () => okText(await b.call('read_text_file', { path: file }))),
        5,
      );
      const f = await alternate(
        ctx.opts.reps * 5,
        () => timeMs(async () => okText(await floor!.call('replay', {}))),
        () => timeMs(async () => okText(await b.call('read_text_file', { path: file }))),
        5,
      );
      const row = finish({ ...base, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } });
      row.note = `transport floor (a server replaying hashline's reply, no work): ${median(f.a).toFixed(2)} ms, ${(median(f.a) / median(f.b)).toFixed(2)}x of the reference measured beside it (${median(f.b).toFixed(2)} ms)`;
      row.extra = { floorMs: median(f.a), floorAnchorMs: median(f.b) };
      return [row];
    } catch (e) {
      return [failed(base, e)];
    } finally {
      await a.close();
      await b.close();
      await floor?.close();
    }
  },
};
