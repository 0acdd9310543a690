// The durable history's cost per file when many new files are recorded in a row, as PUT /v1/fs/tar
// does (src/http/file/put-history.ts): N new text files of about 1.5 KiB each go through
// recordChange under one origin, in groups of 2,000 committed together (flushSync), in process
// against the default SQLite store. Prints the process's CPU µs per file (record, commit, both).
// Run: npx tsx bench/history/group-record.ts [files] [rounds]

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_HISTORY } from '../../src/core/history/history-settings.js';
import { DurableHistory } from '../../src/io/history/durable-history.js';
import { openHistory } from '../../src/io/history/open-history.js';
import { recordChange } from '../../src/tools/record-change.js';
import type { Engine } from '../../src/tools/engine.js';
import { linesText } from '../lib/fixtures.js';
import { median } from '../lib/stats.js';

const N = Number(process.argv[2] ?? 10000);
const ROUNDS = Number(process.argv[3] ?? 5);
const GROUP = 2000;
/** This process's CPU time (user and system), ms: steadier than wall time on a shared machine. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const work = mkdtempSync(path.join(os.tmpdir(), 'hashline-group-record-'));
try {
  const h = await openHistory(DEFAULT_HISTORY, { realRoot: '/bench/group', stateDir: path.join(work, 'state'), background: false });
  if (!(h instanceof DurableHistory)) throw new Error('not a durable history');
  const engine = { history: h } as unknown as Engine;
  const rec: number[] = [];
  const com: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const files = Array.from({ length: N }, (_, i) => ({ real: `/bench/group/r${r}/d${i % 100}/f${i}.txt`, data: Buffer.from(linesText(24, `${r}-${i}`)) }));
    const origin = { tool: 'http_put_tar', client: 'http:loopback', batch: `b${r}` };
    let recMs = 0;
    let comMs = 0;
    for (let i = 0; i < N; i += GROUP) {
      const t0 = cpuMs();
      // as src/http/file/put-history.ts hands a group over: its paths looked up together first
      await h.load(files.slice(i, i + GROUP).map((f) => f.real));
      for (const f of files.slice(i, i + GROUP)) recordChange(engine, f.real, undefined, f.data, origin);
      const t1 = cpuMs();
      h.flushSync();
      const t2 = cpuMs();
      recMs += t1 - t0;
      comMs += t2 - t1;
    }
    rec.push((recMs * 1000) / N);
    com.push((comMs * 1000) / N);
  }
  const f = (x: number) => x.toFixed(1);
  const both = rec.map((x, i) => x + com[i]!);
  console.log(JSON.stringify({ files: N, rounds: ROUNDS, fileBytes: linesText(24, '0-0').length, recordUs: f(median(rec)), commitUs: f(median(com)), cpuUsPerFile: f(median(both)) }));
  await h.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
