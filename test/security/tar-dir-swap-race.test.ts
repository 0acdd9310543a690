// Attack: PUT /v1/fs/tar verifies each directory of the extraction once and then holds it open
// (src/http/tar/tar-dirs.ts). A racing process flips a directory the members go into between the real
// directory and a link to outside while the archive is written. Every use of a held directory
// checks its descriptor first, so a flipped directory is looked at again and the link refused:
// nothing lands outside, whatever the interleaving, and a refusal is a coded error.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { isHashlineError } from '../../src/core/errors/errors.js';
import { resolveLimits } from '../../src/http/limits.js';
import { extractTarFromRequest } from '../../src/http/tar/tar-extract.js';
import { flipDirectory } from '../helpers/dir-flipper.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree } from '../helpers/tmp-tree.js';
import { rawTar, type RawMember } from '../http/tar/raw-tar.js';

function request(body: Uint8Array): IncomingMessage {
  return Object.assign(Readable.from([Buffer.from(body)]), { headers: {}, complete: true }) as unknown as IncomingMessage;
}

test('a directory flipped to a link to outside during an extraction: nothing lands outside', async () => {
  const sb = await makeSandbox({});
  try {
    const engine = await engineFor(sb.root);
    const dest = path.join(sb.root, 'dest');
    await fsp.mkdir(path.join(dest, 'd', 'sub'), { recursive: true });
    await fsp.mkdir(path.join(sb.outside, 'sub'));
    const members: RawMember[] = [];
    for (let i = 0; i < 150; i++) {
      members.push({ name: `d/f${i}.txt`, type: '0', content: `member ${i}\n` });
      members.push({ name: `d/sub/g${i}.txt`, type: '0', content: `deeper ${i}\n` });
    }
    const archive = rawTar(members);
    const outsideBefore = await snapshotTree(sb.outside);
    const flip = flipDirectory(path.join(dest, 'd'), sb.outside, path.join(sb.base, 'stop-flipping'));
    await flip.ready;
    let refused = 0;
    let rounds = 0;
    try {
      // at least 3 extractions, and on until one met the link (at most 40): attempts, not time
      for (; rounds < 40 && (rounds < 3 || refused === 0); rounds++) {
        try {
          await extractTarFromRequest(engine, resolveLimits({ diskReserveBytes: 0 }), { path: dest }, request(archive));
        } catch (e) {
          assert.ok(isHashlineError(e), `an uncoded failure: ${String(e)}`);
          assert.notEqual(e.code, 'internal', e.message);
          refused++;
        }
      }
    } finally {
      await flip.stop();
    }
    assert.deepEqual(await snapshotTree(sb.outside), outsideBefore, 'a member landed outside');
    // the race is real: some extractions met the link
    assert.ok(refused > 0, `no extraction of ${rounds} met the flipped directory`);
  } finally {
    await sb.cleanup();
  }
});
