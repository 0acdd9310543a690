// SHA-256 of 50 files of 4 MiB: hashline's `file_hash` tool over MCP (one
// call, warm server) against `openssl dgst -sha256` over the same files (one core), A B F A B F ...
// Floor (a ceiling: the figures are throughputs in MiB/s): the same files read through one reused
// buffer and hashed with node:crypto in the bench process, nothing checked or sent (bench/lib/hash-floor.mjs).

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomFiles } from '../lib/fixtures.js';
import { startHashFloor } from '../lib/hash-floor.mjs';
import { connectHashline, okText } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

export const sha256: Workload = {
  id: 'sha256',
  async run(ctx) {
    const count = ctx.opts.quick ? 10 : 50;
    const size = (ctx.opts.quick ? 1 : 4) * 1024 * 1024;
    const base: Omit<Row, 'status'> = {
      id: 'sha256',
      title: `SHA-256 of ${count} × ${size / 1048576} MiB files (file_hash)`,
      issue: 22,
      unit: 'MiB/s',
      direction: 'higher',
      anchorName: 'openssl dgst -sha256 (one core)',
      goal: { kind: 'ratio', bound: 'min', value: 1.3, text: '≥ 1.3×' },
    };
    if (!ctx.tools.has('file_hash')) return [notBuilt(base, 'file_hash')];
    const openssl = ctx.anchors.openssl;
    if (!openssl) return [{ ...base, status: 'anchor missing' }];
    const { dir, names } = randomFiles(ctx.opts.work, count, size);
    const mib = (count * size) / 1048576;
    const side = await connectHashline(ctx.opts.repo, dir);
    const floor = await startHashFloor();
    try {
      const files = names.map((n) => path.join(dir, n));
      const s = await alternateWithFloor(
        ctx.opts.reps,
        async () => mib / ((await timeMs(async () => okText(await side.call('file_hash', { filePaths: names })))) / 1000),
        async () => mib / ((await timeMs(() => run(openssl, ['dgst', '-sha256', ...names], { cwd: dir, maxBuffer: 1 << 20 }))) / 1000),
        async () => mib / ((await floor.passMs(files)) / 1000),
        1,
      );
      // sha256sum beside it, for context (coreutils, one core, like openssl)
      const sums: number[] = [];
      for (let i = 0; i < Math.max(3, Math.floor(ctx.opts.reps / 3)); i++) {
        sums.push(mib / ((await timeMs(() => run('sha256sum', names, { cwd: dir, maxBuffer: 1 << 20 }))) / 1000));
      }
      const row = finish({
        ...base,
        status: 'measured',
        hashline: median(s.a),
        anchor: median(s.b),
        samples: { hashline: s.a, anchor: s.b },
        floor: { name: 'the files read through one reused buffer and hashed with node:crypto in the bench process, nothing checked or sent (a ceiling)', value: median(s.f), samples: s.f },
      });
      row.note = `sha256sum: ${median(sums).toFixed(0)} MiB/s (${(median(s.a) / median(sums)).toFixed(2)}x of it); the ceiling is ${(median(s.f) / median(s.b)).toFixed(2)}x of openssl`;
      return [row];
    } catch (e) {
      return [failed(base, e)];
    } finally {
      await floor.close();
      await side.close();
    }
  },
};
