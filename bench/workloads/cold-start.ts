// Cold start: spawn the server and connect the SDK client until `tools/list` is answered,
// hashline (`node dist/cli/main.js mcp`) against the reference filesystem server.

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connectHashline, connectReference, type McpSide } from '../lib/mcp.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, type Row, type Workload } from '../lib/types.js';

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
    try {
      const s = await alternate(
        ctx.opts.reps,
        () => startToList(() => connectHashline(ctx.opts.repo, root)),
        () => startToList(() => connectReference(ref, root)),
        1,
      );
      return [finish({ ...base, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } })];
    } catch (e) {
      return [failed(base, e)];
    }
  },
};
