// A replaced file's old bytes kept across the atomic rename by a hidden link, freed in the thread
// pool: writeAtomic with `frees` hands back one free per file replaced (none for a new file), and
// once they settle nothing of hashline's own is left beside the file; the link helpers on their own.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isOwnName } from '../../src/core/own-names.js';
import { tempNameFor, writeAtomic } from '../../src/io/atomic-write.js';
import { dropOldBytes, freeOldBytes, linkOldBytes } from '../../src/io/old-bytes-link.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const enc = (s: string) => new TextEncoder().encode(s);

test('writeAtomic with frees: one free per file replaced, none for a new one, no own name left once they settle', async () => {
  const sb = await makeSandbox({ 'a.txt': 'old\n' });
  try {
    const engine = await engineFor(sb.root);
    const frees: Promise<void>[] = [];
    const before = await fsp.stat(path.join(sb.root, 'a.txt'));
    await writeAtomic(engine.guard, await engine.guard.resolve('a.txt', 'write'), enc('new\n'), { frees });
    assert.equal(frees.length, 1);
    await writeAtomic(engine.guard, await engine.guard.resolve('b.txt', 'write'), enc('b\n'), { frees });
    assert.equal(frees.length, 1);
    await Promise.all(frees);
    assert.deepEqual((await fsp.readdir(sb.root)).sort(), ['a.txt', 'b.txt']);
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'new\n');
    assert.notEqual((await fsp.stat(path.join(sb.root, 'a.txt'))).ino, before.ino);
    assert.equal((await fsp.stat(path.join(sb.root, 'a.txt'))).mode, before.mode);
  } finally {
    await sb.cleanup();
  }
});

test('linkOldBytes keeps the bytes under a hidden name; freeOldBytes and dropOldBytes remove it', async () => {
  const sb = await makeSandbox({ 'a.txt': 'kept\n' });
  try {
    const file = path.join(sb.root, 'a.txt');
    for (const remove of [(l: NonNullable<ReturnType<typeof linkOldBytes>>) => freeOldBytes(l), (l: NonNullable<ReturnType<typeof linkOldBytes>>) => dropOldBytes(l)]) {
      const link = linkOldBytes(sb.root, sb.root, path.basename(tempNameFor(file)), file);
      assert.ok(link);
      const hidden = path.basename(link.real);
      assert.ok(isOwnName(hidden), hidden);
      assert.equal(readFileSync(link.real, 'utf8'), 'kept\n');
      assert.equal((await fsp.stat(file)).nlink, 2);
      await remove(link);
      assert.deepEqual(await fsp.readdir(sb.root), ['a.txt']);
      assert.equal((await fsp.stat(file)).nlink, 1);
    }
    // nothing there to link: no link, and no error
    assert.equal(linkOldBytes(sb.root, sb.root, path.basename(tempNameFor(path.join(sb.root, 'gone.txt'))), path.join(sb.root, 'gone.txt')), undefined);
  } finally {
    await sb.cleanup();
  }
});

test('a writer killed while it holds the old bytes: the hidden link is cleared when hashline starts, the file kept', async () => {
  const sb = await makeSandbox({ 'a.txt': 'current\n' });
  try {
    const file = path.join(sb.root, 'a.txt');
    const here = path.dirname(fileURLToPath(import.meta.url));
    const script = `
      import { tempNameFor } from ${JSON.stringify(path.resolve(here, '../../src/io/atomic-write.ts'))};
      import { linkOldBytes } from ${JSON.stringify(path.resolve(here, '../../src/io/old-bytes-link.ts'))};
      import path from 'node:path';
      const file = ${JSON.stringify(file)};
      if (!linkOldBytes(path.dirname(file), path.dirname(file), path.basename(tempNameFor(file)), file)) process.exit(3);
      process.kill(process.pid, 'SIGKILL');`;
    const code = await new Promise<number | null>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
      p.on('exit', (c) => resolve(c));
    });
    assert.notEqual(code, 3);
    const left = (await fsp.readdir(sb.root)).sort();
    assert.equal(left.length, 2, left.join());
    assert.match(left[0]!, /^\.a\.txt\.hashline-tmp-\d+\.\d+\./);
    await engineFor(sb.root); // the engine sweeps at start
    assert.deepEqual(await fsp.readdir(sb.root), ['a.txt']);
    assert.equal(readFileSync(file, 'utf8'), 'current\n');
    assert.equal((await fsp.stat(file)).nlink, 1);
  } finally {
    await sb.cleanup();
  }
});
