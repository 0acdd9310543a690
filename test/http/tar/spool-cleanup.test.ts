import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { removeStaleSpools } from '../../../src/http/tar/tar-extract.js';

test('spool folders of dead daemons are removed at start; live ones are kept', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hl-spool-sweep-'));
  const child = spawn(process.execPath, ['-e', '0']);
  const dead = await new Promise<number>((r) => child.on('exit', () => r(child.pid!)));
  mkdirSync(path.join(tmp, `hashline-spool-${dead}-abc123`));
  writeFileSync(path.join(tmp, `hashline-spool-${dead}-abc123`, 'body.tar'), 'x');
  mkdirSync(path.join(tmp, `hashline-spool-${process.pid}-def456`));
  mkdirSync(path.join(tmp, 'unrelated'));
  assert.equal(await removeStaleSpools(tmp), 1);
  assert.deepEqual(readdirSync(tmp).sort(), [`hashline-spool-${process.pid}-def456`, 'unrelated']);
});
