// Attack: stored cross-site scripting through the console. An agent names a file
// `<img src=x onerror=...>.txt` and writes markup into it; the console shows that path in the feed,
// the timeline, the file heading and the diff. Over HTTP, every console reply carrying it is JSON
// that a browser will not sniff as HTML, and no page the server writes contains it. In a real
// browser, nothing of it becomes an element or runs (the page draws text nodes; the CSP forbids
// inline script besides), and the name reads literally.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { escapeHtml } from '../../src/http/console/html-escape.js';
import { loginPage } from '../../src/http/console/auth/login-page.js';
import { fsWriteTool } from '../../src/tools/hashline/fs-write.js';
import { launchBrowser, skipWithoutBrowser } from '../helpers/browser.js';
import { login } from '../http/console/console-session.js';
import { startDaemon } from '../http/harness.js';

const NAME = '<img src=x onerror="window.__pwned=1">.txt';
const BODY = '<script>window.__pwned=2</script>\n<img src=y onerror="window.__pwned=3">\n';

test('the server\'s own HTML escapes what it interpolates', () => {
  assert.equal(escapeHtml(`<a href="x" onclick='y'>&</a>`), '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  const html = loginPage('wrong <b>token</b><script>alert(1)</script>');
  assert.doesNotMatch(html, /<script>alert|<b>token/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
});

test('over HTTP: the markup-named file travels only as JSON, never inside a page', async () => {
  const d = await startDaemon({ token: 't' });
  try {
    assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: NAME, text: BODY }] })).ok, true);
    const s = await login(d, 't');
    const page = await s.call('/');
    assert.doesNotMatch(await page.text(), /onerror/);
    for (const url of ['/console/api/feed', `/console/api/timeline?path=${encodeURIComponent(NAME)}`]) {
      const r = await s.call(url);
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.ok((await r.text()).includes(JSON.stringify(NAME).slice(1, -1)), 'the name is data');
    }
  } finally {
    await d.close();
  }
});

test('in a browser: the name and the content are text, nothing runs', { skip: skipWithoutBrowser() }, async () => {
  const d = await startDaemon({ token: 'browser-xss' });
  const browser = await launchBrowser();
  try {
    assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: NAME, text: 'plain\n' }] })).ok, true);
    assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: NAME, text: BODY }] })).ok, true);
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${d.url}/`);
    await page.fill('#token', 'browser-xss');
    await Promise.all([page.waitForURL(`${d.url}/`), page.click('button[type=submit]')]);
    const link = page.locator('#feed tbody a').first();
    await link.waitFor();
    assert.equal(await link.textContent(), NAME, 'the path reads literally');
    await link.click();
    await page.waitForSelector('#timeline > li .diff-btn');
    assert.equal(await page.textContent('#file-path'), NAME);
    await page.click('#timeline > li:first-child .diff-btn');
    await page.waitForSelector('#diff table.diff');
    const added = await page.$$eval('#diff tr.add td.code', (cells) => cells.map((c) => c.textContent));
    assert.deepEqual(added, ['<script>window.__pwned=2</script>', '<img src=y onerror="window.__pwned=3">']);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'no injected script ran');
    assert.equal(await page.locator('main img, main script').count(), 0, 'no element was made from the data');
    assert.deepEqual(violations, [], 'nothing even tried to run inline (no CSP report)');
  } finally {
    await browser.close();
    await d.close();
  }
});
