// The console in a real browser (Debian's Chromium through playwright-core) over a real daemon on
// loopback with a real token, while a separate `hashline mcp` process (the official SDK client over
// stdio, the same root and the same state directory, so the same SQLite store) edits a file: a
// wrong token is refused, the right one logs in, the MCP edit appears in the live feed, its diff
// shows the changed lines (unified and side by side), and the Restore button puts the file on disk
// back as it was.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, skipWithoutBrowser } from '../../helpers/browser.js';
import { connectMcp, type McpSession, textOf } from '../../helpers/mcp-client.js';
import { type Daemon, startDaemon } from '../harness.js';

const TOKEN = 'browser-test-token-5b1f0c';
const ORIGINAL = 'alpha\nbeta\ngamma\n';
const skip = skipWithoutBrowser();

let d: Daemon;
let mcp: McpSession;
let browser: Browser;
let page: Page;

before(async () => {
  if (skip) return;
  d = await startDaemon({ token: TOKEN, files: { 'notes.txt': ORIGINAL } });
  mcp = await connectMcp(['--root', d.sandbox.root]);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  page.on('dialog', (dialog) => void dialog.accept());
});

after(async () => {
  if (skip) return;
  await browser?.close();
  await mcp?.close();
  await d?.close();
});

test('a wrong token is refused, the right one logs in', { skip }, async () => {
  await page.goto(`${d.url}/`);
  await page.fill('#token', 'not-the-token');
  const [refused] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/console/login')), page.click('button[type=submit]')]);
  assert.equal(refused.status(), 401);
  assert.equal((await page.textContent('#login-error'))?.trim(), 'wrong token');
  await page.fill('#token', TOKEN);
  await Promise.all([page.waitForURL(`${d.url}/`), page.click('button[type=submit]')]);
  await page.waitForSelector('#view-feed:not([hidden])');
  await page.waitForFunction(() => document.getElementById('live')?.textContent?.includes('live'));
  const cookies = await page.context().cookies();
  assert.equal(cookies.length, 1);
  assert.equal(cookies[0]!.httpOnly, true);
  assert.equal(cookies[0]!.sameSite, 'Strict');
  assert.equal(await page.evaluate(() => document.cookie), '', 'no script can read the session cookie');
});

test('an edit made by another process over MCP appears in the live feed', { skip }, async () => {
  const read = await mcp.call('fs_read', { targets: [{ path: 'notes.txt' }] });
  const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  const edit = await mcp.call('fs_edit', { targets: [{ path: 'notes.txt', file_hash: tag, ops: 'replace 2:\n+BETA, edited over MCP' }] });
  assert.notEqual(edit.isError, true, textOf(edit));
  const row = await page.waitForSelector('#feed tbody tr[data-path="notes.txt"]:has-text("fs_edit")', { timeout: 10_000 });
  const text = (await row.textContent()) ?? '';
  assert.match(text, /mcp-stdio:/, 'the client is the other process');
  assert.match(text, /\+1\s*−1/, 'one line added, one removed');
});

test('the diff shows the changed lines; Restore puts the file back on disk', { skip }, async () => {
  await page.click('#feed tbody tr[data-path="notes.txt"]:has-text("fs_edit") a');
  await page.waitForSelector('#view-file:not([hidden]) #timeline > li .diff-btn');
  await page.click('#timeline > li:first-child .diff-btn');
  await page.waitForSelector('#diff table.diff.unified');
  const removed = await page.$$eval('#diff tr.del td.code', (cells) => cells.map((c) => c.textContent));
  const added = await page.$$eval('#diff tr.add td.code', (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(removed, ['beta']);
  assert.deepEqual(added, ['BETA, edited over MCP']);
  await page.check('input[name=layout][value=split]');
  await page.waitForSelector('#diff table.diff.split');
  const pairs = await page.$$eval('#diff table.split tbody tr:has(td.code.del)', (rows) => rows.map((r) => [...r.querySelectorAll('td.code')].map((c) => c.textContent)));
  assert.deepEqual(pairs, [['beta', 'BETA, edited over MCP']]);

  const file = path.join(d.sandbox.root, 'notes.txt');
  assert.equal(await fsp.readFile(file, 'utf8'), 'alpha\nBETA, edited over MCP\ngamma\n');
  // the version read before the edit (the row whose change is "seen")
  const seen = page.locator('#timeline > li', { hasText: 'seen' }).first();
  await seen.locator('.restore-btn').click();
  await page.waitForFunction(() => document.getElementById('file-status')?.textContent?.startsWith('Restored notes.txt'));
  assert.equal(await fsp.readFile(file, 'utf8'), ORIGINAL);
  // the timeline follows: the rollback is logged by the console
  await page.waitForSelector('#timeline > li:first-child:has-text("console")');
});
