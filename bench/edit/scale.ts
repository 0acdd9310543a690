// Scaling of one edit with 1,000 hunks on files of 10^3, 10^4 and 10^5 lines: parse, plan, apply
// and materialize (direct path), and the same edit through stale-tag recovery (snapshot → live move
// with one external line appended at the end; at 10^3 lines every line is anchored, so that edit
// borders the drift and is rejected, which is timed too), and the whole fs_edit tool call on a real
// file (guard, lock, load, apply, diff, history, atomic write with fsync). Prints the median of several runs per size.
// Run: npx tsx bench/edit/scale.ts

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeConfig } from '../../src/core/config/config.js';
import { applyHunks, materialize } from '../../src/core/edit/apply.js';
import { parseEditOps } from '../../src/core/edit/parse.js';
import { resolvePlan } from '../../src/core/edit/plan.js';
import { decideEdit } from '../../src/core/merge/recover.js';
import { computeTag } from '../../src/core/text/tag.js';
import { docText, parseDoc, serializeDoc } from '../../src/core/text/text-doc.js';
import { createEngine } from '../../src/tools/engine.js';
import { fsEditTool } from '../../src/tools/hashline/fs-edit.js';

const HUNKS = 1000;
const RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function opsFor(lines: number): string {
  const step = Math.floor(lines / HUNKS);
  const out: string[] = [];
  for (let k = 0; k < HUNKS; k++) {
    const n = k * step + 1;
    // a mix: replace, delete, insert after
    if (k % 3 === 0) out.push(`replace ${n}:`, `+replaced ${n}`);
    else if (k % 3 === 1) out.push(`delete ${n}`);
    else out.push(`insert after ${n}:`, `+inserted after ${n}`);
  }
  return out.join('\n');
}

let warmedUp = false;
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-edit-scale-')));
const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] }));
const call = { signal: new AbortController().signal, progress: () => undefined };
console.log(`hunks=${HUNKS}, median of ${RUNS} runs`);
console.log('lines\tdirect ms\tstale-merge ms\tfs_edit tool ms\tms per 1k lines (direct)');
for (const lines of [10_000, 1_000, 10_000, 100_000]) {
  const warmup = lines === 10_000 && !warmedUp;
  warmedUp = true;
  const text = Array.from({ length: lines }, (_, i) => `    const value${i} = compute(${i}); // line ${i + 1}`).join('\n') + '\n';
  const bytes = new TextEncoder().encode(text);
  const ops = opsFor(lines);
  const direct: number[] = [];
  const stale: number[] = [];
  const tool: number[] = [];
  const file = path.join(root, `scale-${lines}.ts`);
  const live = text + 'external line\n';
  const liveDoc = parseDoc(new TextEncoder().encode(live));
  let rejected = false;
  const version = { tag: computeTag(text), text, seen: new Set<number>() };
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    const doc = parseDoc(bytes);
    const plan = parseEditOps(ops);
    const hunks = resolvePlan(plan.ops, { lineCount: doc.lines.length, text: docText(doc) });
    const out = serializeDoc(materialize(doc, applyHunks(doc.lines, hunks)));
    direct.push(performance.now() - t0);
    if (out.length === 0) throw new Error('empty');
    t0 = performance.now();
    try {
      const d = decideEdit({ ops: plan.ops, tag: version.tag, live: { text: live, lines: liveDoc.lines, tag: computeTag(live) }, versions: [version] });
      serializeDoc(materialize(liveDoc, d.pieces));
      if (d.route !== 'merge') throw new Error(`expected a merge, got ${d.route}`);
    } catch (e) {
      if ((e as { code?: string }).code !== 'edit_rejected') throw e;
      rejected = true;
    }
    stale.push(performance.now() - t0);
    writeFileSync(file, text);
    engine.history.record(file, text);
    t0 = performance.now();
    const res = await fsEditTool.run(engine, { targets: [{ path: path.basename(file), file_hash: version.tag, ops }] }, call);
    tool.push(performance.now() - t0);
    if (res.isError) throw new Error(res.text);
  }
  const m = median(direct);
  if (warmup) continue;
  console.log(`${lines}\t${m.toFixed(2)}\t${median(stale).toFixed(2)}${rejected ? ' (rejected)' : ''}\t${median(tool).toFixed(2)}\t${((m / lines) * 1000).toFixed(3)}`);
}
rmSync(root, { recursive: true, force: true });
