// kill -9 of an MCP server in the middle of edit batches while it records into the SQLite history.
// Every edit whose reply came back (acknowledged) must be in the store afterwards, with its
// content, and the store must pass `PRAGMA integrity_check`. Each trial starts a new server on the
// same root and state directory, re-reads the files and edits on until the kill.

import { createHash } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, textOf, type Session } from '../lib/hashline.js';
import type { StressPlan } from '../lib/scale.js';
import { versionText } from '../lib/versions.js';
import { historyStoreFor } from '../../src/io/history/history-file.js';
import { loadSqliteModule } from '../../src/io/history/node-sqlite.js';

export interface HistoryKillReport {
  trials: number;
  /** Edit batches whose reply came back. */
  acknowledged: number;
  /** Distinct texts of acknowledged edits. */
  versions: number;
  /** Acknowledged texts missing from the store (content or log row). */
  missing: number;
  missingSamples: string[];
  integrity: string;
  storeBytes: number;
}

const FILES = ['h0.txt', 'h1.txt', 'h2.txt'];
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FileState {
  lines: string[];
  tag: string;
}

async function readAll(s: Session, dir: string): Promise<Map<string, FileState>> {
  const r = await s.call('fs_read', { targets: FILES.map((f) => ({ path: f, line_range: '1-1' })) });
  if (r.isError) throw new Error(`fs_read refused: ${textOf(r).slice(0, 200)}`);
  const results = (r.structuredContent as { results: Array<{ file_hash: string }> }).results;
  const out = new Map<string, FileState>();
  FILES.forEach((f, i) => out.set(f, { lines: readFileSync(path.join(dir, f), 'utf8').replace(/\n$/, '').split('\n'), tag: results[i]!.file_hash }));
  return out;
}

export async function historyKill(plan: StressPlan): Promise<HistoryKillReport> {
  const base = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-history-kill-'));
  const root = path.join(base, 'root');
  const state = path.join(base, 'state');
  await fsp.mkdir(root);
  for (const f of FILES) await fsp.writeFile(path.join(root, f), versionText(f, 0, 1500));
  const acknowledged = new Set<string>();
  let batches = 0;
  try {
    for (let trial = 0; trial < plan.historyKillTrials; trial++) {
      const s = await connect(root, [], { XDG_STATE_HOME: state });
      const pid = s.pid()!;
      const files = await readAll(s, root);
      let stop = false;
      // the kill comes 150-1000 ms after the trial's first acknowledged batch (a server still loading
      // its modules under load would otherwise be killed before any edit was acknowledged)
      let firstAck: () => void = () => undefined;
      const acked = new Promise<void>((r) => (firstAck = r));
      const loop = (async () => {
        for (let n = 0; !stop; n++) {
          const targets = FILES.map((f) => {
            const st = files.get(f)!;
            const k = 1 + Math.floor(Math.random() * st.lines.length);
            const text = `trial ${trial} batch ${n} line ${k} ${Math.random().toString(36).slice(2)}`;
            const next = [...st.lines];
            next[k - 1] = text;
            return { f, next, arg: { path: f, file_hash: st.tag, ops: `replace ${k}:\n+${text}` } };
          });
          const r = await s.call('fs_edit', { targets: targets.map((t) => t.arg) });
          if (r.isError) throw new Error(`fs_edit refused: ${textOf(r).slice(0, 300)}`);
          const results = (r.structuredContent as { results: Array<{ file_hash: string }> }).results;
          targets.forEach((t, i) => {
            files.set(t.f, { lines: t.next, tag: results[i]!.file_hash });
            acknowledged.add(`${t.f}\u0000${t.next.join('\n')}\n`);
          });
          batches++;
          firstAck();
        }
      })().catch(() => undefined);
      await Promise.race([acked, loop]);
      await sleep(150 + Math.random() * 850);
      process.kill(pid, 'SIGKILL');
      stop = true;
      await loop;
      await s.close().catch(() => undefined);
    }
    // a fresh look at the store, as the next server would open it
    const realRoot = await fsp.realpath(root);
    const file = historyStoreFor(realRoot, state);
    const sqlite = loadSqliteModule();
    if ('error' in sqlite) throw new Error(sqlite.error);
    const db = sqlite.open(file);
    db.exec('PRAGMA busy_timeout = 10000');
    const integrity = String(db.prepare('PRAGMA integrity_check').all()[0]?.integrity_check);
    const has = db.prepare(
      "SELECT count(*) AS n FROM versions v JOIN blobs b ON b.sha256 = v.sha256 WHERE v.path = ? AND v.sha256 = ? AND v.op = 'made'",
    );
    const missingSamples: string[] = [];
    let missing = 0;
    for (const key of acknowledged) {
      const [f, text] = key.split('\u0000') as [string, string];
      const n = Number(has.all(path.join(realRoot, f), sha(text))[0]!.n);
      if (n === 0) {
        missing++;
        if (missingSamples.length < 5) missingSamples.push(`${f} ${text.slice(0, 40)}…`);
      }
    }
    db.close();
    let storeBytes = 0;
    for (const suffix of ['', '-wal']) storeBytes += (await fsp.stat(file + suffix).catch(() => ({ size: 0 }))).size;
    return { trials: plan.historyKillTrials, acknowledged: batches, versions: acknowledged.size, missing, missingSamples, integrity, storeBytes };
  } finally {
    await fsp.rm(base, { recursive: true, force: true });
  }
}
