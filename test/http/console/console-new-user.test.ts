// The console as a new user meets it, in a real browser (Debian's Chromium through playwright-core)
// over a real daemon on loopback: at 420 px wide every cell of a feed row and of a version is inside
// the window and a row stays short; a file's timeline opens on its newest change's diff; after a
// Restore the diff shows the restore and the live indicator still says "live"; a folder filter
// without its trailing slash matches the folder's files (not a sibling folder sharing its prefix); a
// change made on disk by another process is labelled as such, not as the agent's.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { callTool } from '../../../src/api/call-tool.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { fsWriteTool } from '../../../src/tools/hashline/fs-write.js';
import { launchBrowser, skipWithoutBrowser } from '../../helpers/browser.js';
import { type Daemon, startDaemon } from '../harness.js';

const TOKEN = 'new-user-token-3c9e1a';
const skip = skipWithoutBrowser();

let d: Daemon;
let browser: Browser;

const write = async (rel: string, text: string) => assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: rel, text }] })).ok, true);
const read = async (rel: string) => assert.equal((await callTool(d.engine, fsReadTool, { targets: [{ path: rel }] })).ok, true);

before(async () => {
  if (skip) return;
  d = await startDaemon({
    token: TOKEN,
    files: { 'notes.txt': 'alpha\nbeta\ngamma\n', 'src/cli/main.ts': 'export {};\n', 'src/cli2/other.ts': 'export {};\n', 'long/path/that/goes/on/and/on/to/a-rather-long-file-name.ts': 'x\n' },
  });
  await write('notes.txt', 'alpha\nBETA\ngamma\n');
  await write('src/cli/main.ts', 'export const main = 1;\n');
  await write('src/cli2/other.ts', 'export const other = 2;\n');
  await write('long/path/that/goes/on/and/on/to/a-rather-long-file-name.ts', 'y\n');
  // another process changes the file on disk; hashline sees the result on its next read
  await fsp.writeFile(path.join(d.sandbox.root, 'notes.txt'), 'alpha\nBETA\ngamma\ndelta from an editor\n');
  await read('notes.txt');
  browser = await launchBrowser();
});

after(async () => {
  if (skip) return;
  await browser?.close();
  await d?.close();
});

async function open(width: number, hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${d.url}/`);
  await page.fill('#token', TOKEN);
  await Promise.all([page.waitForURL(`${d.url}/`), page.click('button[type=submit]')]);
  await page.waitForFunction(() => document.getElementById('live')?.textContent?.includes('live'));
  if (hash) await page.evaluate((h) => (location.hash = h), hash);
  return page;
}

const classesOf = async (page: Page, selector: string) => (await page.$eval(selector, (e) => [...e.classList])).sort();

/** Cells (and the row) of each match that leave the viewport, and the tallest row. */
async function fit(page: Page, rows: string, cells: string): Promise<{ outside: string[]; tallest: number; count: number }> {
  return page.$$eval(
    rows,
    (list, sel) => {
      const outside: string[] = [];
      let tallest = 0;
      for (const row of list) {
        const r = row.getBoundingClientRect();
        tallest = Math.max(tallest, r.height);
        for (const c of row.querySelectorAll(sel)) {
          const b = c.getBoundingClientRect();
          if (b.width === 0 || b.height === 0 || b.left < 0 || b.right > window.innerWidth + 0.5) outside.push(`${c.className || c.tagName}: ${Math.round(b.left)}..${Math.round(b.right)} (${b.width}x${b.height})`);
        }
      }
      return { outside, tallest, count: list.length };
    },
    cells,
  );
}

test('at 420 px every part of a row is on screen and rows stay short', { skip }, async () => {
  const page = await open(420);
  try {
    await page.waitForSelector('#feed tbody tr[data-path="notes.txt"]');
    const feed = await fit(page, '#feed tbody tr', ':scope > td');
    assert.ok(feed.count >= 5, `feed rows: ${feed.count}`);
    assert.deepEqual(feed.outside, [], 'feed cells inside the window');
    assert.ok(feed.tallest <= 130, `a feed row is ${feed.tallest} px tall`);
    for (const col of ['path', 'change', 'lines', 'tool', 'client', 'when']) assert.ok(await page.isVisible(`#feed tbody tr:first-child td.${col}`), `${col} shown`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scrolling');

    await page.click('#feed tbody tr[data-path="notes.txt"] a');
    await page.waitForSelector('#timeline > li .diff-btn');
    const versions = await fit(page, '#timeline > li', ':scope > *');
    assert.deepEqual(versions.outside, [], 'version parts inside the window');
    assert.ok(versions.tallest <= 110, `a version row is ${versions.tallest} px tall`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scrolling in the timeline');
  } finally {
    await page.close();
  }
});

test("a file's timeline opens on its newest change; Restore redraws the diff and keeps the live indicator", { skip }, async () => {
  const page = await open(1366, '#/file/notes.txt');
  try {
    const newest = Number(await page.getAttribute('#timeline > li:first-child', 'data-id', { timeout: 10_000 }));
    await page.waitForSelector(`#diff[data-id="${newest}"] table.diff`);
    assert.deepEqual(await classesOf(page, '#timeline > li:first-child'), ['outside', 'selected'], 'the newest version is chosen');
    assert.deepEqual(await page.$$eval('#diff tr.add td.code', (c) => c.map((x) => x.textContent)), ['delta from an editor']);

    // restore the version the fs_write made ("made", one below the outside change)
    const made = page.locator('#timeline > li', { hasText: 'made' }).first();
    await made.locator('.restore-btn').click();
    await page.waitForSelector('#file-status:not([hidden])');
    assert.match((await page.textContent('#file-status')) ?? '', /^Restored notes\.txt to version \d+/);
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'notes.txt'), 'utf8'), 'alpha\nBETA\ngamma\n');
    await page.waitForSelector('#timeline > li:first-child:has-text("console")');
    const restored = Number(await page.getAttribute('#timeline > li:first-child', 'data-id'));
    assert.ok(restored > newest);
    await page.waitForSelector(`#diff[data-id="${restored}"] table.diff`);
    assert.deepEqual(await page.$$eval('#diff tr.del td.code', (c) => c.map((x) => x.textContent)), ['delta from an editor'], 'the diff is the restore, not the old one');
    assert.deepEqual(await page.$$eval('#diff tr.add td.code', (c) => c.map((x) => x.textContent)), []);
    assert.match((await page.textContent('#diff > p:first-child')) ?? '', /made [0-9A-F]{4}\) against version \d+ \(changed outside hashline, seen by fs_read/);
    assert.deepEqual(await classesOf(page, '#timeline > li:first-child'), ['selected'], 'the restore is chosen');
    assert.equal((await page.textContent('#live'))?.trim(), '● live', 'the live indicator stays');
  } finally {
    await page.close();
  }
});

test('a folder filter without the trailing slash matches its files, not a sibling folder', { skip }, async () => {
  const page = await open(1366);
  try {
    await page.waitForSelector('#feed tbody tr[data-path="src/cli2/other.ts"]');
    for (const filter of ['src/cli', 'src/cli/']) {
      await page.fill('#filters input[name=path]', filter);
      await Promise.all([page.waitForResponse((r) => r.url().includes('/console/api/feed')), page.click('#filters button[type=submit]')]);
      await page.waitForSelector('#feed tbody tr');
      const paths = [...new Set(await page.$$eval('#feed tbody tr', (rows) => rows.map((r) => (r as HTMLElement).dataset.path)))];
      assert.deepEqual(paths, ['src/cli/main.ts'], `filter ${filter}`);
    }
    // a file's own path still matches that file alone
    await page.fill('#filters input[name=path]', 'src/cli/main.ts');
    await Promise.all([page.waitForResponse((r) => r.url().includes('/console/api/feed')), page.click('#filters button[type=submit]')]);
    assert.deepEqual([...new Set(await page.$$eval('#feed tbody tr', (rows) => rows.map((r) => (r as HTMLElement).dataset.path)))], ['src/cli/main.ts']);
  } finally {
    await page.close();
  }
});

test('a change made on disk by another process is labelled as made outside hashline', { skip }, async () => {
  const page = await open(1366);
  try {
    await page.fill('#filters input[name=path]', 'notes.txt');
    await Promise.all([page.waitForResponse((r) => r.url().includes('/console/api/feed')), page.click('#filters button[type=submit]')]);
    const row = page.locator('#feed tbody tr.outside');
    assert.equal(await row.count(), 1);
    assert.match((await row.locator('td.change').textContent()) ?? '', /^changed outside hashline, seen by fs_read · [0-9A-F]{4}$/);
    const first = await page.$$eval('#feed tbody tr td.change', (c) => c.map((x) => x.textContent ?? '').filter((t) => t.includes('seen')));
    assert.equal(first.filter((t) => t.startsWith('first seen by fs_write')).length, 1, `the first sighting: ${JSON.stringify(first)}`);

    await page.click('#feed tbody tr.outside a');
    const version = page.locator('#timeline > li.outside');
    await version.waitFor();
    assert.match((await version.locator('.by').textContent()) ?? '', /outside hashline\s*seen by fs_read/);
    assert.match((await version.locator('.change').textContent()) ?? '', /^changed outside hashline · [0-9A-F]{4}$/);
    assert.doesNotMatch((await page.textContent('#timeline')) ?? '', /seen [0-9A-F]{4}/, 'no bare "seen" label');
  } finally {
    await page.close();
  }
});
