// The reference scan of a delete batch, counted: each candidate is parsed once per batch whatever
// the number of targets it might import, and not again by a later batch while it is unchanged; files without the target's name are never parsed;
// importers the batch deletes do not count; an index file is found through `import "."`; a file
// larger than the warm cache takes is still scanned.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { scanReferences } from '../../../src/lang/references/reference-scan.js';
import { sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();

test('each candidate is parsed once for the whole batch; files not naming a target are not parsed', async () => {
  const files: Record<string, string> = {
    'one.ts': 'export const one = 1;\n',
    'two.ts': 'export const two = 2;\n',
    'three.ts': 'export const three = 3;\n',
    'user.ts': "import { one } from './one';\nimport { two } from './two';\nimport { three } from './three';\n",
  };
  for (let i = 0; i < 20; i++) files[`other/f${i}.ts`] = `export const f${i} = ${i};\n`;
  const { sb, engine } = await setup(files);
  const reals = ['one.ts', 'two.ts', 'three.ts'].map((f) => path.join(sb.root, f));
  const report = await scanReferences(engine.guard, reals, { deleting: new Set(reals) });
  // user.ts names all three targets; the three targets themselves are being deleted; f0..f19 name none
  assert.equal(report.parsed, 1);
  for (const [i, r] of reals.entries()) {
    assert.deepEqual(report.targets.get(r), { importers: [{ filePath: 'user.ts', line: i + 1 }], unprovable: [], readBlocked: 0 });
  }
  // a later batch reuses the imports of the unchanged file; a changed file is parsed again
  const again = await scanReferences(engine.guard, reals, { deleting: new Set(reals) });
  assert.equal(again.parsed, 0);
  assert.deepEqual(again.targets, report.targets);
  await fsp.writeFile(path.join(sb.root, 'user.ts'), "// moved down\nimport { one } from './one';\n");
  const changed = await scanReferences(engine.guard, reals, { deleting: new Set(reals) });
  assert.equal(changed.parsed, 1);
  assert.deepEqual(changed.targets.get(reals[0]!)!.importers, [{ filePath: 'user.ts', line: 2 }]);
  assert.deepEqual(changed.targets.get(reals[1]!)!.importers, []);
});

test('importers deleted in the same batch do not count; an index file is found through "." and its directory name', async () => {
  const { sb, engine } = await setup({
    'lib/index.ts': 'export const x = 1;\n',
    'lib/inner/use.ts': "import { x } from '..';\n",
    'app.ts': "import { x } from './lib';\n",
  });
  const r = (p: string) => path.join(sb.root, p);
  const alone = await scanReferences(engine.guard, [r('lib/index.ts')], { deleting: new Set([r('lib/index.ts')]) });
  assert.deepEqual(alone.targets.get(r('lib/index.ts'))!.importers, [{ filePath: 'app.ts', line: 1 }, { filePath: 'lib/inner/use.ts', line: 1 }]);
  const deleting = new Set([r('lib/index.ts'), r('app.ts'), r('lib/inner/use.ts')]);
  const together = await scanReferences(engine.guard, [...deleting], { deleting });
  for (const t of deleting) assert.deepEqual(together.targets.get(t)!.importers, [], t);
});

test('a candidate larger than the warm cache takes is read and scanned too', async () => {
  const big = `import { u } from './util';\n${'// filler line of a generated file\n'.repeat(80_000)}`;
  assert.ok(big.length > 2 * 1024 * 1024);
  const { sb, engine } = await setup({ 'util.ts': 'export const u = 1;\n', 'bundle.ts': big });
  const t = path.join(sb.root, 'util.ts');
  const report = await scanReferences(engine.guard, [t], { deleting: new Set([t]) });
  assert.deepEqual(report.targets.get(t), { importers: [{ filePath: 'bundle.ts', line: 1 }], unprovable: [], readBlocked: 0 });
  assert.equal(report.parsed, 1);
});
