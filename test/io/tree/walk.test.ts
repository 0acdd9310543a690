import assert from 'node:assert/strict';
import { test } from 'node:test';
import { walkFiles } from '../../../src/io/tree/walk.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('walk: .gitignore rules apply below their directory only; names starting with `..` are ordinary names', async () => {
  const sb = await makeSandbox({
    '.gitignore': '*.log\n',
    'a.log': 'x',
    'keep.txt': 'x',
    '..notes.txt': 'x',
    'sub/.gitignore': 'secret/\n',
    'sub/secret/s.txt': 'x',
    'sub/ok.txt': 'x',
    'sub/b.log': 'x',
    'node_modules/m.js': 'x',
  });
  const engine = await engineFor(sb.root);
  const seen: string[] = [];
  for await (const f of walkFiles(engine.guard, engine.guard.realRoot)) seen.push(f.display);
  assert.deepEqual(seen.sort(), ['..notes.txt', '.gitignore', 'keep.txt', 'sub/.gitignore', 'sub/ok.txt']);
  await sb.cleanup();
});
