// The command line's refusals speak its own words: `hashline read PATH --lines A-B`, not the MCP
// tool's `fs_read` with line_range; file content is never rewritten.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cliWording } from '../../src/cli/commands/cli-wording.js';
import { REPO } from '../helpers/mcp-client.js';

test('tool hints become command lines and flags', () => {
  assert.equal(cliWording('Next call: `fs_read` with line_range "3-9" (or the whole file)'), 'Next: `hashline read PATH --lines 3-9` (or the whole file)');
  assert.equal(cliWording('Re-read the file with `fs_read`, then `fs_edit`'), 'Re-read the file with `hashline read`, then `hashline edit`');
  assert.equal(cliWording('nothing to change'), 'nothing to change');
});

test('a refused `hashline edit` names `hashline read`, and its exit status is 1', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hashline-wording-'));
  try {
    writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n');
    const r = spawnSync(process.execPath, [path.join(REPO, 'bin/hashline.mjs'), 'edit', 'a.txt', '--tag', '0000', '--ops', '-', '--root', dir], {
      encoding: 'utf8',
      input: 'replace 2:\n+x\n',
      env: { ...process.env, XDG_STATE_HOME: dir + '-state' },
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /`hashline read`/);
    assert.doesNotMatch(r.stderr, /`fs_read`|line_range/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dir + '-state', { recursive: true, force: true });
  }
});
