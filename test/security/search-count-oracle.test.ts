// Attack: a yes/no oracle on read-blocked content through fs_search's totals. Past max_results the
// search goes on counting hits; those counts came from bytes read without the verified open, so a
// folder swapped for a link to a blocked folder after the walk listed it answered regex probes
// (`SECRET_7` yes, `SECRET_8` no) in `total_matches`. Every byte that influences a reply (counts
// and the binary-file note included) now comes from a verified open.
//
// The swap is made deterministic: the search reads the clock right after the walk has listed the
// files, and the test's clock makes the swap at that moment. A real race (the flipper) follows.

import assert from 'node:assert/strict';
import { promises as fsp, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { runTool } from '../../src/mcp/server.js';
import { fsSearchTool } from '../../src/tools/navigation/fs-search.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { flipDirectory } from '../helpers/dir-flipper.js';
import { callContext, engineFor } from '../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

const FILES = {
  'a/decoy.txt': 'DECOY\n',
  'z/k.txt': 'nothing here\n',
  'z/bin.dat': 'plain\n',
  'blocked/k.txt': 'SECRET_7\nSECRET_7\n',
  'blocked/bin.dat': 'SECRET\0binary\n',
};

type Reply = { total_matches?: number; total_files?: number; notes?: string[] };

/** Runs fs_search with `z` swapped for a link to `blocked` right after the walk listed the files. */
async function searchWithSwap(pattern: string): Promise<Reply> {
  sb = await makeSandbox(FILES);
  const root = sb.root;
  const engine = await engineFor(root, { readBlock: [path.join(root, 'blocked')] });
  const z = path.join(root, 'z');
  const realNow = performance.now.bind(performance);
  let swapped = false;
  performance.now = () => {
    // the first clock read of fs_search's own loop comes right after the walk
    if (!swapped && new Error().stack!.includes('fs-search.ts')) {
      swapped = true;
      renameSync(z, `${z}.real`);
      symlinkSync(path.join(root, 'blocked'), z);
    }
    return realNow();
  };
  try {
    const r = await runTool(engine, fsSearchTool as unknown as ToolDefinition, { pattern, regex: true, max_results: 1, context: 0 }, callContext());
    assert.ok(swapped, 'the swap happened mid-search');
    return r.structuredContent as Reply;
  } finally {
    performance.now = realNow;
    if (swapped) {
      unlinkSync(z);
      renameSync(`${z}.real`, z);
    }
    await engine.history.close();
  }
}

test('the totals past max_results do not depend on the blocked folder swapped in', async () => {
  const yes = await searchWithSwap('SECRET_7|DECOY');
  const no = await searchWithSwap('SECRET_8|DECOY');
  assert.deepEqual([yes.total_matches, yes.total_files], [1, 1], JSON.stringify(yes));
  assert.deepEqual([no.total_matches, no.total_files], [1, 1], JSON.stringify(no));
  assert.deepEqual(yes, no, 'the probe is not answered');
});

test('the binary-file note counts only what a verified open saw', async () => {
  const r = await searchWithSwap('DECOY|binary');
  assert.ok(!(r.notes ?? []).some((n) => /binary/.test(n)), JSON.stringify(r));
});

test('a real race: the flipper swaps the folder while searches run; totals never count the blocked hits', async () => {
  sb = await makeSandbox(FILES);
  const root = sb.root;
  const engine = await engineFor(root, { readBlock: [path.join(root, 'blocked')] });
  const flipper = flipDirectory(path.join(root, 'z'), path.join(root, 'blocked'), path.join(sb.base, 'stop'));
  try {
    await flipper.ready;
    for (let i = 0; i < 150; i++) {
      const r = await runTool(engine, fsSearchTool as unknown as ToolDefinition, { pattern: 'SECRET_7|DECOY', regex: true, max_results: 1, context: 0 }, callContext());
      const s = r.structuredContent as Reply;
      assert.ok(!JSON.stringify(r).includes('SECRET_7\\n'), JSON.stringify(r));
      assert.equal(s.total_matches ?? 0, 1, `attempt ${i}: ${JSON.stringify(s)}`);
    }
  } finally {
    await flipper.stop();
    await engine.history.close();
  }
  await fsp.access(path.join(root, 'z/k.txt'));
});
