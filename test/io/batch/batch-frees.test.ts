// A batch's backups: with `frees`, a replaced file's backup is removed in the thread pool (its
// promise handed to the caller, which awaits it before replying) and none is left once it settles;
// a deleted file's is removed before the batch returns. The preflight reads a small file in
// synchronous calls and a large one in the thread pool: the journaled states agree.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { commitBatch } from '../../../src/io/batch/batch-commit.js';
import { readState } from '../../../src/io/batch/batch-state.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');
const enc = (s: string) => new TextEncoder().encode(s);

test('frees: the replaced file\'s backup removal is handed back, and no backup is left once it settles', async () => {
  const sb = await makeSandbox({ 'a.txt': 'A\n', 'c.txt': 'C\n' });
  try {
    const engine = await engineFor(sb.root);
    const r = (p: string) => engine.guard.resolve(p, 'write');
    const frees: Promise<void>[] = [];
    await commitBatch(engine.guard, engine.locks, [
      { kind: 'write', rp: await r('a.txt'), bytes: enc('A2\n'), expectedSha256: sha('A\n') },
      { kind: 'delete', rp: await r('c.txt'), expectedSha256: sha('C\n') },
    ], { frees });
    // the delete's backup is gone already: only the write's removal may still run
    assert.equal(frees.length, 1);
    assert.ok((await fsp.readdir(sb.root)).every((n) => !n.includes('.c.txt.hashline-bak-')));
    await Promise.all(frees);
    assert.deepEqual((await fsp.readdir(sb.root)).sort(), ['a.txt']);
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'A2\n');
  } finally {
    await sb.cleanup();
  }
});

test('the preflight state of a small file (synchronous read) and of a large one (thread pool) hold the same facts', async () => {
  const small = 'x'.repeat(1000);
  const large = 'y'.repeat(1024 * 1024 + 1);
  const sb = await makeSandbox({ 's.txt': small, 'l.txt': large });
  try {
    const engine = await engineFor(sb.root);
    for (const [name, text] of [['s.txt', small], ['l.txt', large]] as const) {
      const rp = await engine.guard.resolve(name, 'write');
      const st = await fsp.stat(rp.real);
      const kept = await readState(engine.guard, rp, 2 * 1024 * 1024);
      assert.ok(kept.exists);
      assert.deepEqual({ sha256: kept.sha256, size: kept.size, ino: kept.ino, dev: kept.dev, mode: kept.mode }, { sha256: sha(text), size: text.length, ino: st.ino, dev: st.dev, mode: st.mode });
      assert.equal(Buffer.from(kept.bytes!).toString(), text);
      const unkept = await readState(engine.guard, rp, -1);
      assert.ok(unkept.exists && unkept.bytes === undefined && unkept.sha256 === sha(text), name);
      // bytes known to the caller: compared, not hashed; other bytes are hashed for what they are
      const known = await readState(engine.guard, rp, -1, undefined, { bytes: enc(text), sha256: 'f'.repeat(64) });
      assert.ok(known.exists && known.sha256 === 'f'.repeat(64), name);
      const other = await readState(engine.guard, rp, -1, undefined, { bytes: enc(text.replace(/^./, 'z')), sha256: 'f'.repeat(64) });
      assert.ok(other.exists && other.sha256 === sha(text), name);
    }
    assert.deepEqual(await readState(engine.guard, await engine.guard.resolve('gone.txt', 'write')), { exists: false });
  } finally {
    await sb.cleanup();
  }
});
