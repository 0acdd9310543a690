// One call's history commit against its floor, in process: the durable SQLite history records a
// new 2,000-line version ('made', as file_patch and fs_edit do) and commits it (flushSync), beside
// the bench's floor (bench/lib/floors.ts: one transaction storing a blob of the same size and one
// log row), alternated. Prints p50 and mean per commit (the mean carries the WAL checkpoints).
// Run: npx tsx bench/history/commit-floor.ts [commits]

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_HISTORY } from '../../src/core/history/history-settings.js';
import { DurableHistory } from '../../src/io/history/durable-history.js';
import { openHistory } from '../../src/io/history/open-history.js';
import { HistoryCommitFloor } from '../lib/floors.js';
import { linesText } from '../lib/fixtures.js';
import { median } from '../lib/stats.js';

const N = Number(process.argv[2] ?? 400);
const work = mkdtempSync(path.join(os.tmpdir(), 'hashline-commit-floor-'));
try {
  const h = await openHistory(DEFAULT_HISTORY, { realRoot: '/bench/commit', stateDir: path.join(work, 'state'), background: false });
  if (!(h instanceof DurableHistory)) throw new Error('not a durable history');
  const floor = new HistoryCommitFloor(path.join(work, 'floor'));
  const base = linesText(2000);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < N; i++) {
    const text = `${base}version ${i}\n`;
    h.record('/bench/commit/f.txt', text, { kind: 'made' });
    const t0 = performance.now();
    h.flushSync();
    ours.push(performance.now() - t0);
    theirs.push(floor.commitMs(new TextEncoder().encode(text)));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const f = (x: number) => x.toFixed(3);
  const a = ours.slice(20);
  const b = theirs.slice(20);
  console.log(JSON.stringify({ commits: N, historyP50: f(median(a)), historyMean: f(mean(a)), floorP50: f(median(b)), floorMean: f(mean(b)) }));
  floor.close();
  await h.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
