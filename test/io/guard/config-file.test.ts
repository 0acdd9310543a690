import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigSource, locateConfig } from '../../../src/io/guard/config-file.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('locating: --config, then HASHLINE_CONFIG, then hashline.toml at the root', () => {
  assert.deepEqual(locateConfig('/etc/h.toml', '/p', {}), { path: '/etc/h.toml', explicit: true });
  assert.deepEqual(locateConfig(undefined, '/p', { HASHLINE_CONFIG: '/e/h.toml' }), { path: '/e/h.toml', explicit: true });
  assert.deepEqual(locateConfig(undefined, '/p', {}), { path: '/p/hashline.toml', explicit: false });
});

test('an explicit file must exist and parse at start; the default may be absent', async () => {
  const sb = await makeSandbox({ 'bad.toml': '[safety]\nrequire_hash = 3\n' });
  try {
    assert.throws(() => ConfigSource.open({ path: path.join(sb.root, 'none.toml'), explicit: true }), (e: { code?: string }) => e.code === 'config_invalid');
    assert.throws(() => ConfigSource.open({ path: path.join(sb.root, 'bad.toml'), explicit: true }), (e: { code?: string; message: string }) => e.code === 'config_invalid' && /line 2/.test(e.message));
    const dflt = ConfigSource.open({ path: path.join(sb.root, 'hashline.toml'), explicit: false });
    assert.equal(dflt.current.file, undefined);
    assert.equal(dflt.current.settings.requireHash, true);
  } finally {
    await sb.cleanup();
  }
});

test('edits move the generation when the meaning changes; an invalid edit keeps the last good one and says why', async () => {
  const sb = await makeSandbox({ 'hashline.toml': '[safety]\nrequire_hash = false\n' });
  const file = path.join(sb.root, 'hashline.toml');
  try {
    const src = ConfigSource.open({ path: file, explicit: false });
    const changes: number[] = [];
    src.onChange((s) => changes.push(s.generation));
    const g1 = src.current;
    assert.equal(g1.generation, 1);
    assert.equal(g1.settings.requireHash, false);
    assert.equal(src.refresh(), g1, 'no change, same state');

    await fsp.writeFile(file, '# only a comment added\n[safety]\nrequire_hash = false\n');
    assert.equal(src.refresh().generation, 1, 'a comment does not change the meaning');

    await fsp.writeFile(file, '[safety]\nrequire_hash = true\n[files.read]\nmodes = ["text"]\n');
    const g2 = src.refresh();
    assert.equal(g2.generation, 2);
    assert.notEqual(g2.identity, g1.identity);
    assert.deepEqual(g2.settings.readModes, ['text']);

    await fsp.writeFile(file, '[files.read]\nmodes = ["pictures"]\n');
    const bad = src.refresh();
    assert.equal(bad.generation, 2, 'the last good generation stays');
    assert.deepEqual(bad.settings.readModes, ['text']);
    assert.match(bad.lastError?.message ?? '', /line 2.*keeping generation 2/);

    await fsp.rm(file);
    const gone = src.refresh();
    assert.equal(gone.generation, 3, 'the default file removed: defaults again');
    assert.equal(gone.file, undefined);
    assert.deepEqual(gone.settings.readModes, ['ast', 'text']);
    assert.deepEqual(changes, [2, 3]);
  } finally {
    await sb.cleanup();
  }
});
