// `--durability atomic|fsync` ([write] durability): in `atomic` mode (the default) a write is a temp
// file renamed over the target, with no fsync; in `fsync` mode the file and its directory are
// flushed too. Counted on the real calls: node:fs's fsync is wrapped (syncBuiltinESMExports makes
// the ES module bindings see the wrapper) while each tool writes through a real engine.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { createEngine } from '../../src/api/create-engine.js';
import { parseConfigText } from '../../src/core/config/config-parse.js';
import { fileWriteTool } from '../../src/tools/boundary/file-write.js';
import { fsWriteTool } from '../../src/tools/hashline/fs-write.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';
import { REPO } from '../helpers/mcp-client.js';

let calls = 0;
const original = fs.fsync;
before(() => {
  (fs as { fsync: typeof fs.fsync }).fsync = ((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
    calls++;
    return original(fd, cb);
  }) as typeof fs.fsync;
  syncBuiltinESMExports();
});
after(() => {
  (fs as { fsync: typeof fs.fsync }).fsync = original;
  syncBuiltinESMExports();
});

async function writesIn(mode: 'atomic' | 'fsync' | undefined, sb: Sandbox): Promise<number> {
  const engine = await createEngine({ root: sb.root, config: false, history: 'memory', ...(mode ? { durability: mode } : {}) });
  try {
    calls = 0;
    const a = await callTool(engine, fsWriteTool, { targets: [{ path: `${mode}-a.txt`, text: 'one\ntwo\n' }] });
    assert.equal(a.ok, true, JSON.stringify(a));
    const b = await callTool(engine, fileWriteTool, { files: { [`${mode}-nested/b.txt`]: { content: 'x\n' } } });
    assert.equal(b.ok, true, JSON.stringify(b));
    assert.equal(await fsp.readFile(path.join(sb.root, `${mode}-a.txt`), 'utf8'), 'one\ntwo\n');
    assert.equal(await fsp.readFile(path.join(sb.root, `${mode}-nested/b.txt`), 'utf8'), 'x\n');
    return calls;
  } finally {
    await engine.history.close();
  }
}

test('atomic (the default) writes without fsync; fsync flushes file and directory', async () => {
  const sb = await makeSandbox({});
  try {
    assert.equal(await writesIn(undefined, sb), 0, 'the default is atomic: no fsync');
    assert.equal(await writesIn('atomic', sb), 0);
    // fs_write: file + directory; file_write: file + directory (at least)
    assert.ok((await writesIn('fsync', sb)) >= 4);
  } finally {
    await sb.cleanup();
  }
});

test('[write] durability is read from the configuration file; an unknown mode is refused', () => {
  assert.equal(parseConfigText('hashline.toml', '[write]\ndurability = "fsync"\n').write?.durability, 'fsync');
  assert.throws(() => parseConfigText('hashline.toml', '[write]\ndurability = "sometimes"\n'), /durability/);
});

test('--durability takes atomic or fsync: anything else is a usage error (exit 2)', () => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin/hashline.mjs'), 'mcp', '--root', REPO, '--durability', 'never'], { encoding: 'utf8', input: '' });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--durability takes atomic or fsync/);
});
