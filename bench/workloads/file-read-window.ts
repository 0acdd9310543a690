// file_read of a 100-line window at the end of a 1 GiB file (64 MiB with --quick): the server's
// peak RSS (goal ≤ 100 MiB: memory stays flat whatever the size), and its time beside
// `openssl dgst -sha256` of the same file (the result carries the whole-file SHA-256, so hashing
// the whole file plus one scan for line starts is the floor of this read). Floors: for the time, the
// same file read through one reused buffer and hashed by node:crypto in the bench process (nothing checked,
// no line scan); for the memory, the server's RSS before the reads (what the reads add is the rest).

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { bigFile } from '../lib/fixtures.js';
import { hashFileSync } from '../lib/hash-floor.mjs';
import { connectHashline } from '../lib/mcp.js';
import { rssOf } from '../lib/ports.js';
import { median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

const MiB = 1024 * 1024;

export const fileReadWindow: Workload = {
  id: 'file-read-window',
  async run(ctx) {
    const size = ctx.opts.quick ? 64 * MiB : 1024 * MiB;
    const rss: Omit<Row, 'status'> = {
      id: 'file-read-window-rss',
      title: `file_read of 100 lines at the end of a ${size / MiB} MiB file: server peak RSS`,
      issue: 15,
      unit: 'MiB',
      direction: 'lower',
      anchorName: '—',
      goal: { kind: 'absolute', bound: 'max', value: 100, text: '≤ 100 MiB' },
    };
    const time: Omit<Row, 'status'> = {
      id: 'file-read-window-time',
      title: `file_read of 100 lines at the end of a ${size / MiB} MiB file, with its whole-file SHA-256`,
      issue: 15,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'openssl dgst -sha256 (same file)',
      goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5× (report)' },
    };
    if (!ctx.tools.has('file_read')) return [notBuilt(rss, 'file_read'), notBuilt(time, 'file_read')];
    const openssl = ctx.anchors.openssl;
    const { file, lines } = bigFile(ctx.opts.work, size);
    const side = await connectHashline(ctx.opts.repo, path.dirname(file));
    try {
      const pid = side.pid()!;
      const before = await rssOf(pid);
      const read = async () => {
        const r = await side.call('file_read', { files: [{ filePath: path.basename(file), lines: [lines - 100, lines] }] });
        const d = (r.structuredContent as { ok: boolean; data?: { files: Array<{ lines?: { returned: number[] }; sha256?: string }> } }).data?.files[0];
        if (!d?.sha256 || d.lines?.returned[1] !== lines) throw new Error(`window answered ${JSON.stringify(d).slice(0, 200)}`);
      };
      const ours: number[] = [];
      const theirs: number[] = [];
      const floor: number[] = [];
      for (let i = 0; i < Math.max(3, ctx.opts.heavyReps); i++) {
        ours.push(await timeMs(read));
        if (openssl) theirs.push(await timeMs(() => run(openssl, ['dgst', '-sha256', file])));
        floor.push(await timeMs(async () => hashFileSync(file)));
      }
      const mem = await rssOf(pid);
      return [
        finish({ ...rss, status: mem ? 'measured' : 'failed', hashline: mem?.hwm, floor: { name: 'the same server idle before the reads (its RSS)', value: before?.rss }, note: `${lines} lines; RSS ${before?.rss.toFixed(0)} MiB idle before the reads, peak ${mem?.hwm.toFixed(0)} MiB (includes start-up)` }),
        openssl
          ? finish({
              ...time,
              status: 'measured',
              hashline: median(ours),
              anchor: median(theirs),
              samples: { hashline: ours, anchor: theirs },
              floor: { name: 'node:crypto SHA-256 of the file read through one reused buffer, in the bench process', value: median(floor), samples: floor },
            })
          : { ...time, status: 'anchor missing' },
      ];
    } catch (e) {
      return [failed(rss, e), failed(time, e)];
    } finally {
      await side.close();
    }
  },
};
