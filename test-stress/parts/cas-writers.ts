// N boundary clients (each its own `hashline mcp` process) run read-hash-write loops on the same few
// files for a while: file_read a file (its content and sha256), write `count+1 marker` back with that
// expectedSha256; a stale hash means another writer won, so read again. Afterwards each file's
// count equals the writes acknowledged for it (no lost update), every acknowledged count is
// unique (no two writers won from the same base), and every file is whole (one `N marker` line).

import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, listedTools, type Session } from '../lib/hashline.js';
import type { StressPlan } from '../lib/scale.js';

export interface CasWritersReport {
  notBuilt?: string;
  writers: number;
  files: number;
  seconds: number;
  acknowledged: number;
  stale: number;
  otherErrors: number;
  lost: number;
  duplicated: number;
  resurrected: number;
  torn: number;
  samples: string[];
}

type Envelope<T> = { ok: boolean; data?: T; error?: { code: string; message: string } };

export async function casWriters(plan: StressPlan): Promise<CasWritersReport> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-stress-cas-')));
  const files = Array.from({ length: plan.casFiles }, (_, i) => `shared-${i}.txt`);
  const report: CasWritersReport = { writers: plan.casWriters, files: files.length, seconds: plan.casSeconds, acknowledged: 0, stale: 0, otherErrors: 0, lost: 0, duplicated: 0, resurrected: 0, torn: 0, samples: [] };
  const sessions: Session[] = [];
  try {
    const tools = await listedTools(base);
    const missing = ['file_read', 'file_write'].filter((t) => !tools.has(t));
    if (missing.length) return { ...report, notBuilt: `${missing.join(', ')} not built yet` };
    for (const f of files) await fsp.writeFile(path.join(base, f), '');
    for (let i = 0; i < plan.casWriters; i++) sessions.push(await connect(base));
    const acked = new Map<string, number[]>(files.map((f) => [f, []]));
    const deadline = Date.now() + plan.casSeconds * 1000;
    await Promise.all(
      sessions.map(async (s, w) => {
        for (let n = 0; Date.now() < deadline; n++) {
          const file = files[(w + n) % files.length]!;
          const read = (await s.call('file_read', { files: [{ filePath: file, mode: 'text' }] })).structuredContent as Envelope<{ files: Array<{ sha256?: string; content?: string }> }>;
          const entry = read.data?.files[0];
          const count = /^(\d+) /.exec(entry?.content ?? '')?.[1];
          if (!read.ok || entry?.sha256 === undefined || (entry.content !== '' && count === undefined)) {
            report.otherErrors++;
            if (report.samples.length < 5) report.samples.push(`read: ${JSON.stringify(read.error ?? entry)}`);
            continue;
          }
          const next = (count === undefined ? 0 : Number(count)) + 1;
          const write = (await s.call('file_write', { files: { [file]: { content: `${next} w${w}-${n}\n`, expectedSha256: entry.sha256 } } })).structuredContent as Envelope<unknown>;
          if (write.ok) {
            acked.get(file)!.push(next);
            report.acknowledged++;
          } else if (write.error?.code === 'stale_or_missing_hash') {
            report.stale++;
          } else {
            report.otherErrors++;
            if (report.samples.length < 5) report.samples.push(`write: ${write.error?.code} ${write.error?.message}`);
          }
        }
      }),
    );
    for (const f of files) {
      const text = await fsp.readFile(path.join(base, f), 'utf8');
      const m = /^(\d+) w\d+-\d+\n$/.exec(text);
      const counts = acked.get(f)!;
      if (text !== '' && m === null) {
        report.torn++;
        if (report.samples.length < 5) report.samples.push(`${f}: ${JSON.stringify(text.slice(0, 80))}`);
        continue;
      }
      const final = m === null ? 0 : Number(m[1]);
      report.lost += Math.max(0, counts.length - final);
      report.duplicated += counts.length - new Set(counts).size;
      // a count on disk higher than the acknowledged writes: a write landed that was not acknowledged
      report.resurrected += Math.max(0, final - counts.length);
    }
    return report;
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    await fsp.rm(base, { recursive: true, force: true });
  }
}
