import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PathGuard } from '../../../src/io/guard/path-guard.js';
import { referenceFiles } from '../../../src/io/tree/reference-files.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('reference files: ignored files included, .git and node_modules skipped, refused files counted by key, links not followed', async () => {
  const sb = await makeSandbox({
    '.gitignore': 'gen/\n',
    'a.ts': '',
    'gen/b.ts': '',
    'node_modules/m/c.ts': '',
    '.git/d.ts': '',
    'private/e.ts': '',
    'private/f.py': '',
    'g.txt': '',
    '.a.ts.hashline-tmp-1': '',
  });
  try {
    await fsp.symlink(path.join(sb.root, 'private'), path.join(sb.root, 'link'));
    const guard = await PathGuard.create({ root: sb.root, readBlock: [path.join(sb.root, 'private')] });
    const key = (real: string) => (real.endsWith('.ts') ? 'ts' : real.endsWith('.py') ? 'py' : undefined);
    const r = await referenceFiles(guard, guard.realRoot, key);
    assert.deepEqual(r.files.map((f) => path.relative(sb.root, f)), ['a.ts', 'gen/b.ts']);
    assert.deepEqual([...r.refused].sort(), [['py', 1], ['ts', 1]]);
  } finally {
    await sb.cleanup();
  }
});
