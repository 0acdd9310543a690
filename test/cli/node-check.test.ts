// An older Node.js is refused with one line naming the supported versions, before any other
// module of the CLI loads (a fake version for the bin's process, and the machine's own older Node
// when it has one); supported versions start, and the help names them.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { nodeTooOld, NODE_SUPPORTED } from '../../src/cli/node-support.js';
import { REPO } from '../helpers/mcp-client.js';

const BIN = path.join(REPO, 'bin/hashline.mjs');
/** Makes the process report another Node.js version, before the bin's first module loads. */
const fakeVersion = (v: string) => `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"${v}"}})`;

test('the versions below 22 are refused, 22 and later are not', () => {
  assert.equal(nodeTooOld('20.20.2'), 'hashline needs Node.js 22 or later (tested on 22 and 24); this is Node.js v20.20.2');
  assert.equal(nodeTooOld('v18.19.0'), 'hashline needs Node.js 22 or later (tested on 22 and 24); this is Node.js v18.19.0');
  assert.match(nodeTooOld('21.7.3')!, /v21\.7\.3$/);
  for (const v of ['22.0.0', '22.23.3', '24.21.0', '26.0.0']) assert.equal(nodeTooOld(v), undefined, v);
});

test('the bin under an older Node prints that one line and exits 2, for help and for a server alike', () => {
  assert.ok(existsSync(BIN), 'bin/hashline.mjs is missing: run `npm run build`');
  for (const args of [['--help'], ['mcp', '--root', REPO]]) {
    const r = spawnSync(process.execPath, ['--import', fakeVersion('20.19.0'), BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'hashline needs Node.js 22 or later (tested on 22 and 24); this is Node.js v20.19.0\n');
  }
});

test('the machine\'s own older Node, when it has one, gets the same line', (t) => {
  const old = ['/usr/bin/node', '/usr/local/bin/node']
    .filter((n) => existsSync(n))
    .map((n) => ({ n, v: spawnSync(n, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim() }))
    .find(({ v }) => nodeTooOld(v) !== undefined);
  if (old === undefined) {
    t.diagnostic('no Node.js older than 22 on this machine: the fake version above stands for it');
    return;
  }
  const r = spawnSync(old.n, [BIN, '--help'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr, `hashline needs ${NODE_SUPPORTED}; this is Node.js v${old.v}\n`);
});

test('this Node starts the bin, and --help names the supported versions', () => {
  const r = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Runs on Node\.js 22 or later \(tested on 22 and 24\)\./);
});
