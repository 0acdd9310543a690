// A whole read of a 2,000-line file over MCP stdio: hashline `fs_read` against the reference
// server's `read_text_file`, both driven by the same SDK client; p50 of many calls. Floor: a bare
// SDK server that replays hashline's recorded reply and does nothing else (bench/lib/replay-server.mjs),
// run after each pair (A B F ...).

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { linesText } from '../lib/fixtures.js';
import { startReplay, type Replay } from '../lib/floors.js';
import { connectHashline, connectReference, okText } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, REPORT, type Row, type Workload } from '../lib/types.js';

export const readWhole: Workload = {
  id: 'read-whole',
  async run(ctx) {
    const base: Omit<Row, 'status'> = {
      id: 'read-whole-2000',
      title: 'whole read of a 2,000-line file (fs_read), p50',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'read_text_file (reference MCP server)',
      goal: REPORT,
    };
    const floorName = "a bare SDK server replaying hashline's recorded reply (no work)";
    if (!ctx.tools.has('fs_read')) return [notBuilt(base, 'fs_read')];
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...base, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'read');
    mkdirSync(root, { recursive: true });
    const file = path.join(root, 'read2000.ts');
    writeFileSync(file, linesText(2000));
    const a = await connectHashline(ctx.opts.repo, root);
    const b = await connectReference(ref, root);
    let floor: Replay | undefined;
    try {
      const reply = await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] });
      floor = await startReplay(ctx.opts.repo, ctx.opts.work, 'read-whole', [reply]);
      const s = await alternateWithFloor(
        ctx.opts.reps * 5,
        () => timeMs(async () => okText(await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] }))),
        () => timeMs(async () => okText(await b.call('read_text_file', { path: file }))),
        () => floor!.callMs(),
        5,
      );
      const row = finish({
        ...base,
        status: 'measured',
        hashline: median(s.a),
        anchor: median(s.b),
        samples: { hashline: s.a, anchor: s.b },
        floor: { name: floorName, value: median(s.f), samples: s.f, goal: { kind: 'ratio', bound: 'max', value: 1.1, text: '≤ 1.1×' } },
      });
      row.note = `the floor is ${(median(s.f) / median(s.b)).toFixed(2)}x of the reference; reply ${JSON.stringify(reply).length} bytes of JSON (the content twice, text and structuredContent, as the reference's)`;
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
