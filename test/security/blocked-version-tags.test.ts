// Attack: recover a short read-blocked secret (a 4-digit PIN) from its 4-hex tag. The tag is a
// 16-bit hash of the text: ten thousand guesses find the PIN. The console listed the tag and size of
// each read-blocked version, and fs_rollback's errors (version_not_found, modified_externally) and
// replies named such tags. For a read-blocked file none of them appears, on either face.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { mergeConfig } from '../../src/core/config/config.js';
import { computeTag } from '../../src/core/text/tag.js';
import { createEngine } from '../../src/tools/engine.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { fsWriteTool } from '../../src/tools/hashline/fs-write.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';
import { login } from '../http/console/console-session.js';
import { startDaemon } from '../http/harness.js';

const PIN_1 = 'PIN=4821\n';
const PIN_2 = 'PIN=7305\n';
const TAGS = [computeTag(PIN_1), computeTag(PIN_2)];

/** True when `text` names one of the PIN versions' tags as a tag would be shown (quoted or in a header). */
const namesTag = (text: string, ...only: string[]) => (only.length > 0 ? only : TAGS).some((t) => new RegExp(`["\`#]${t}\\b`).test(text));

test('the console lists read-blocked versions without their tag or size', async () => {
  const d = await startDaemon({ token: 't', readBlock: ['pin.txt'], files: { 'pin.txt': PIN_1, 'open.txt': 'open\n' } });
  const writer = await createEngine(mergeConfig({ root: d.sandbox.root, allow: [], block: [], readAllow: [], readBlock: [] }));
  try {
    assert.equal((await callTool(writer, fsReadTool, { targets: [{ path: 'pin.txt' }, { path: 'open.txt' }] })).ok, true);
    assert.equal((await callTool(writer, fsWriteTool, { targets: [{ path: 'pin.txt', text: PIN_2 }] })).ok, true);
    await writer.history.flush();
    const s = await login(d, 't');
    type View = { path: string; tag: string | null; size: number | null; readable: boolean };
    const feedText = await (await s.call('/console/api/feed')).text();
    const feed = JSON.parse(feedText) as { entries: View[] };
    const pins = feed.entries.filter((e) => e.path === 'pin.txt');
    assert.ok(pins.length >= 2, 'the versions are listed');
    for (const e of pins) assert.deepEqual([e.readable, e.tag, e.size], [false, null, null]);
    assert.ok(feed.entries.some((e) => e.path === 'open.txt' && e.tag === computeTag('open\n')), 'readable versions keep their tag');
    const tlText = await (await s.call('/console/api/timeline?path=pin.txt')).text();
    for (const e of (JSON.parse(tlText) as { entries: View[] }).entries) assert.deepEqual([e.tag, e.size], [null, null]);
    for (const text of [feedText, tlText]) assert.ok(!namesTag(text), text);
  } finally {
    await writer.history.close();
    await d.close();
  }
});

test('fs_rollback of a read-blocked file: no error or reply names its tags', async () => {
  const sb = await makeSandbox({ 'pin.txt': PIN_1 });
  const mcp = await connectMcp(['--root', sb.root, '--read-block', 'pin.txt', '--history', 'memory']);
  try {
    const replies: string[] = [];
    const call = async (tool: string, args: Record<string, unknown>) => {
      const r = await mcp.call(tool, args);
      replies.push(JSON.stringify(r));
      return r;
    };
    // blind writes are allowed: the history now holds PIN_2 and the placeholder
    assert.notEqual((await call('fs_write', { targets: [{ path: 'pin.txt', text: PIN_2 }] })).isError, true);
    assert.notEqual((await call('fs_write', { targets: [{ path: 'pin.txt', text: 'placeholder\n' }] })).isError, true);
    const nf = await call('fs_rollback', { path: 'pin.txt', hash: 'ZZZZ' });
    assert.equal(nf.isError, true);
    assert.equal((nf.structuredContent as { error: { code: string } }).error.code, 'version_not_found');
    await fsp.writeFile(path.join(sb.root, 'pin.txt'), 'changed outside\n');
    const ext = await call('fs_rollback', { path: 'pin.txt', hash: '' });
    assert.equal((ext.structuredContent as { error: { code: string } }).error.code, 'modified_externally');
    // a restore goes through, and says it hides the tags
    const ok = await call('fs_rollback', { path: 'pin.txt', hash: TAGS[1]! });
    assert.notEqual(ok.isError, true, replies.at(-1));
    assert.equal(await fsp.readFile(path.join(sb.root, 'pin.txt'), 'utf8'), PIN_2);
    const back = await call('fs_rollback', { path: 'pin.txt', hash: '' });
    assert.notEqual(back.isError, true, replies.at(-1));
    assert.match(replies.at(-1)!, /tags are not shown/);
    // the secret was on disk before the agent came: no reply names its tag (PIN_2's the agent wrote)
    for (const r of replies) assert.ok(!namesTag(r, TAGS[0]!), r);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
