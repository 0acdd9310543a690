// The warm tree listing of the symbol search: the same files io/tree/walk.ts yields, and fresh after
// every kind of change (a file added or removed, a .gitignore edited, a directory renamed).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { listTree } from '../../../src/io/tree/tree-index.js';
import { walkFiles } from '../../../src/io/tree/walk.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('listTree agrees with walkFiles and stays fresh', async () => {
  const sb = await makeSandbox({
    '.gitignore': 'ignored/\n*.log\n',
    'a.ts': '',
    'b.log': '',
    'ignored/x.ts': '',
    'sub/.gitignore': 'local.ts\n',
    'sub/local.ts': '',
    'sub/kept.ts': '',
    'node_modules/m.js': '',
    '.git/config': '',
    'blocked/s.ts': '',
  });
  try {
    await fsp.symlink(sb.outside, path.join(sb.root, 'link'));
    const engine = await engineFor(sb.root, { readBlock: [path.join(sb.root, 'blocked')] });
    const walked = async () => {
      const out: string[] = [];
      for await (const f of walkFiles(engine.guard, sb.root)) out.push(f.real);
      return out;
    };
    const rel = (xs: readonly string[]) => xs.map((x) => path.relative(sb.root, x));
    assert.deepEqual(rel(listTree(engine.guard, sb.root)), ['.gitignore', 'a.ts', 'sub/.gitignore', 'sub/kept.ts']);
    assert.deepEqual(listTree(engine.guard, sb.root), await walked());

    await fsp.writeFile(path.join(sb.root, 'sub/new.ts'), '');
    assert.ok(rel(listTree(engine.guard, sb.root)).includes('sub/new.ts'), 'a new file');
    await fsp.writeFile(path.join(sb.root, 'sub/.gitignore'), 'local.ts\nnew.ts\n');
    assert.ok(!rel(listTree(engine.guard, sb.root)).includes('sub/new.ts'), 'a .gitignore edit');
    await fsp.rm(path.join(sb.root, 'a.ts'));
    assert.ok(!rel(listTree(engine.guard, sb.root)).includes('a.ts'), 'a removed file');
    await fsp.rename(path.join(sb.root, 'sub'), path.join(sb.root, 'moved'));
    assert.deepEqual(rel(listTree(engine.guard, sb.root)), ['.gitignore', 'moved/.gitignore', 'moved/kept.ts']);
    assert.deepEqual(listTree(engine.guard, sb.root), await walked());
  } finally {
    await sb.cleanup();
  }
});
