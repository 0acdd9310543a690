// A whole read of a 2,000-line file over MCP stdio: hashline `fs_read` against the reference
// server's `read_text_file`, both driven by the same SDK client; p50 of many calls. Floor: a bare
// SDK server that replays hashline's recorded reply and does nothing else (bench/lib/replay-server.mjs),
// run after each pair (A B F ...). Two rows: the file rewritten (every line new, same size) before
// each round, so every read meets a text the server has not seen; and the same file read again
// unchanged (hashline then reuses the lines and rendering it verified against the bytes it read).

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
      title: 'whole read of a 2,000-line file changed since the last read (fs_read), p50',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'read_text_file (reference MCP server)',
      goal: REPORT,
    };
    const repeatBase: Omit<Row, 'status'> = { ...base, id: 'read-whole-2000-repeat', title: 'whole read of the same 2,000-line file, unchanged since the last read (fs_read), p50' };
    const floorName = "a bare SDK server replaying hashline's recorded reply (no work)";
    if (!ctx.tools.has('fs_read')) return [notBuilt(base, 'fs_read'), notBuilt(repeatBase, 'fs_read')];
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...base, status: 'anchor missing' }, { ...repeatBase, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'read');
    mkdirSync(root, { recursive: true });
    const file = path.join(root, 'read2000.ts');
    // one salt length for every text, so the recorded reply the floor replays is as large as each read's
    const salted = (i: number) => linesText(2000, String(i % 1000).padStart(3, '0'));
    writeFileSync(file, salted(0));
    const a = await connectHashline(ctx.opts.repo, root);
    const b = await connectReference(ref, root);
    let floor: Replay | undefined;
    try {
      const reply = await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] });
      floor = await startReplay(ctx.opts.repo, ctx.opts.work, 'read-whole', [reply]);
      const read = () => timeMs(async () => okText(await a.call('fs_read', { targets: [{ path: 'read2000.ts' }] })));
      const refRead = () => timeMs(async () => okText(await b.call('read_text_file', { path: file })));
      const ratioGoal = { kind: 'ratio', bound: 'max', value: 1.1, text: '≤ 1.1×' } as const;
      const replyNote = `reply ${JSON.stringify(reply).length} bytes of JSON (the content twice, text and structuredContent, as the reference's)`;
      // every line new before each round (same length: the salt has three digits), read by both sides
      const changed = await alternateWithFloor(
        ctx.opts.reps * 5,
        (i) => {
          writeFileSync(file, salted(i + 1));
          return read();
        },
        () => refRead(),
        () => floor!.callMs(),
        5,
      );
      writeFileSync(file, salted(0));
      const repeat = await alternateWithFloor(ctx.opts.reps * 5, read, refRead, () => floor!.callMs(), 5);
      const row = (b0: Omit<Row, 'status'>, s: { a: number[]; b: number[]; f: number[] }, what: string) => {
        const r = finish({
          ...b0,
          status: 'measured',
          hashline: median(s.a),
          anchor: median(s.b),
          samples: { hashline: s.a, anchor: s.b },
          floor: { name: floorName, value: median(s.f), samples: s.f, goal: ratioGoal },
        });
        r.note = `${what}; the floor is ${(median(s.f) / median(s.b)).toFixed(2)}x of the reference; ${replyNote}`;
        return r;
      };
      return [
        row(base, changed, 'the file rewritten before each round (every line new, same size), so each read meets a text new to the server and records it in the history'),
        row(repeatBase, repeat, 'the file unchanged: hashline reads and compares every byte, then reuses the lines and rendering it kept for them'),
      ];
    } catch (e) {
      return [failed(base, e), failed(repeatBase, e)];
    } finally {
      await a.close();
      await b.close();
      await floor?.close();
    }
  },
};
