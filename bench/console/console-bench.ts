// `npm run bench:console` (after `npm run build`): the web console in a real browser (Debian's
// Chromium) against a spawned `hashline serve`, while a spawned `hashline mcp` edits files in the
// same root and the same SQLite history.
// 1. Feed latency: for each fs_edit over MCP, the time from its reply reaching the client to its row
//    painted in the feed (a MutationObserver in the page sees the row inserted and stamps it after
//    the next frame, i.e. once it is drawn; both stamps are this machine's wall clock). Goal: p95 ≤
//    200 ms.
// 2. Timeline: a file with 1,000 versions (a 200-line text, one line changed per version) opened in
//    the page: from the route change (leaving a small file's timeline) to the frame that shows the
//    first screenful (60 rows) and the one that shows all 1,000 (request, line counts of 1,000
//    diffs, rendering); and a fresh load of the timeline's address (from navigation start). Goal:
//    < 1 s. Plus the endpoint alone.
// BENCH_CONSOLE_EDITS=N sets the number of edits (default 60).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { launchBrowser, browserMissing } from '../../test/helpers/browser.js';
import { loggedInPage, startServe } from '../lib/console-rig.js';
import { connectStdio, hashlineCli, okText } from '../lib/mcp.js';
import { median, percentile } from '../lib/stats.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EDITS = Number(process.env.BENCH_CONSOLE_EDITS ?? 60);
const TOKEN = 'console-bench-token';
const f1 = (x: number) => `${x.toFixed(1)} ms`;

const tagOf = (r: CallToolResult) => {
  okText(r);
  return (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
};

function textOf(lines: number, version: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(i === version % lines ? `line ${i}: changed in version ${version}` : `line ${i}: export const value${i} = ${i};`);
  return `${out.join('\n')}\n`;
}

async function main(): Promise<void> {
  const missing = browserMissing();
  if (missing) throw new Error(missing);
  const cli = hashlineCli(REPO);
  const work = mkdtempSync(path.join(os.tmpdir(), 'hashline-console-bench-'));
  const root = path.join(work, 'root');
  mkdirSync(root);
  process.env.XDG_STATE_HOME = path.join(work, 'state');
  const tokenFile = path.join(work, 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  writeFileSync(path.join(root, 'edited.txt'), textOf(50, 0));
  writeFileSync(path.join(root, 'big.txt'), textOf(200, 0));
  const served = await startServe(cli, root, tokenFile);
  const mcp = await connectStdio(process.execPath, [cli, 'mcp', '--root', root], root);
  const browser = await launchBrowser();
  try {
    const page = await loggedInPage(browser, served.url, TOKEN);
    await page.evaluate(() => {
      const w = window as unknown as { __rows: Array<{ id: number; path: string; t: number }> };
      w.__rows = [];
      new MutationObserver((muts) => {
        const added: HTMLElement[] = [];
        for (const m of muts) for (const n of m.addedNodes) if ((n as HTMLElement).dataset?.path) added.push(n as HTMLElement);
        // stamped once the frame that shows them is drawn
        if (added.length > 0) requestAnimationFrame(() => setTimeout(() => {
          const t = Date.now();
          for (const el of added) w.__rows.push({ id: Number(el.dataset.id), path: el.dataset.path!, t });
        }));
      }).observe(document.querySelector('#feed tbody')!, { childList: true });
    });

    // 1. feed latency
    let tag = tagOf(await mcp.call('fs_read', { targets: [{ path: 'edited.txt', line_range: '1-1' }] }));
    const sinceReply: number[] = [];
    const sinceCall: number[] = [];
    let seen = 0;
    for (let i = 1; i <= EDITS + 5; i++) {
      const t0 = Date.now();
      const r = await mcp.call('fs_edit', { targets: [{ path: 'edited.txt', file_hash: tag, ops: `replace ${(i % 50) + 1}:\n+edit ${i}` }] });
      const replied = Date.now();
      tag = tagOf(r);
      const handle = await page.waitForFunction(
        (after) => (window as unknown as { __rows: Array<{ path: string; t: number }> }).__rows.slice(after).find((x) => x.path === 'edited.txt')?.t,
        seen,
        { timeout: 10_000, polling: 5 },
      );
      const shown = (await handle.jsonValue()) as number;
      seen = await page.evaluate(() => (window as unknown as { __rows: unknown[] }).__rows.length);
      if (i > 5) {
        sinceReply.push(shown - replied);
        sinceCall.push(shown - t0);
      }
      // edits arrive at irregular moments, not in step with the poll
      await new Promise((res) => setTimeout(res, 40 + ((i * 37) % 120)));
    }

    // 2. a file with 1,000 versions
    let bigTag = tagOf(await mcp.call('fs_read', { targets: [{ path: 'big.txt', line_range: '1-1' }] }));
    const t1 = performance.now();
    for (let v = 1; v < 1000; v++) {
      bigTag = tagOf(await mcp.call('fs_edit', { targets: [{ path: 'big.txt', file_hash: bigTag, ops: `replace ${(v % 200) + 1}:\n+line ${v % 200}: changed in version ${v}` }] }));
    }
    const made = performance.now() - t1;
    // in the page: from the route change (coming from a small file's timeline) to the 1,000th row
    // times from a start to the frame that shows the first screenful (60 rows) and all 1,000 rows
    const watchRows = `window.__drawn = (t0) => new Promise((resolve) => {
      const out = [];
      const done = (k) => requestAnimationFrame(() => setTimeout(() => { out[k] = performance.now() - t0; if (out[0] !== undefined && out[1] !== undefined) resolve(out); }));
      let firstSeen = false;
      const obs = new MutationObserver(() => {
        const n = document.querySelectorAll('#timeline > li[data-id]').length;
        const mine = document.getElementById('file-path')?.textContent === 'big.txt';
        if (mine && !firstSeen && n >= 60) { firstSeen = true; done(0); }
        if (mine && n >= 1000) { obs.disconnect(); done(1); }
      });
      obs.observe(document, { childList: true, subtree: true });
    });`;
    // in the page: from the route change (leaving a small file's timeline)
    const opens: Array<[number, number]> = [];
    await page.evaluate(watchRows);
    for (let k = 0; k < 6; k++) {
      await page.evaluate(() => (location.hash = `#/file/${encodeURIComponent('edited.txt')}`));
      await page.waitForFunction(() => document.getElementById('file-path')?.textContent === 'edited.txt' && document.querySelectorAll('#timeline > li[data-id]').length < 1000);
      opens.push(
        await page.evaluate<[number, number]>(`(() => {
          const p = window.__drawn(performance.now());
          location.hash = '#/file/' + encodeURIComponent('big.txt');
          return p;
        })()`),
      );
    }
    // a fresh page load of the timeline's address, from navigation start
    const loads: Array<[number, number]> = [];
    const loadParts: string[] = [];
    const fresh = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    await fresh.context().addCookies(await page.context().cookies());
    await fresh.addInitScript(`${watchRows} window.__shown = window.__drawn(0);`);
    for (let k = 0; k < 4; k++) {
      await fresh.goto('about:blank');
      await fresh.goto(`${served.url}/#/file/${encodeURIComponent('big.txt')}`);
      loads.push(await fresh.evaluate<[number, number]>('window.__shown'));
      // where the time went (in the page's own terms: the DOM's types are not in this project's TypeScript setup)
      loadParts.push(
        await fresh.evaluate<string>(`(() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const tl = performance.getEntriesByType('resource').find((e) => e.name.includes('/console/api/timeline'));
          return 'document ' + nav.responseEnd.toFixed(0) + ', script ran ' + nav.domContentLoadedEventEnd.toFixed(0) + ', timeline asked ' + tl.startTime.toFixed(0) + ' answered ' + tl.responseEnd.toFixed(0);
        })()`),
      );
    }
    await fresh.close();
    const cookie = (await page.context().cookies())[0]!;
    const endpoint: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      const res = await fetch(`${served.url}/console/api/timeline?path=big.txt&limit=1000`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
      const body = (await res.json()) as { entries: unknown[] };
      endpoint.push(performance.now() - t);
      if (body.entries.length < 1000) throw new Error(`timeline has ${body.entries.length} entries`);
    }

    const rows: Array<[string, string]> = [
      ['feed: reply → row drawn, p50', f1(median(sinceReply))],
      ['feed: reply → row drawn, p95', f1(percentile(sinceReply, 95))],
      ['feed: reply → row drawn, max', f1(Math.max(...sinceReply))],
      ['feed: call → row drawn, p50 / p95', `${f1(median(sinceCall))} / ${f1(percentile(sinceCall, 95))}`],
      ['timeline of 1,000 versions, in the page, first screen: first open / median / max', `${f1(opens[0]![0])} / ${f1(median(opens.map((o) => o[0])))} / ${f1(Math.max(...opens.map((o) => o[0])))}`],
      ['timeline of 1,000 versions, in the page, all rows: first open / median / max', `${f1(opens[0]![1])} / ${f1(median(opens.map((o) => o[1])))} / ${f1(Math.max(...opens.map((o) => o[1])))}`],
      ['timeline, fresh page load, first screen: median / max', `${f1(median(loads.map((o) => o[0])))} / ${f1(Math.max(...loads.map((o) => o[0])))}`],
      ['timeline, fresh page load, all rows: median / max', `${f1(median(loads.map((o) => o[1])))} / ${f1(Math.max(...loads.map((o) => o[1])))}`],
      ['timeline endpoint alone (1,000 entries with counts), median', f1(median(endpoint))],
      ['making the 1,000 versions over MCP (fs_edit each)', `${(made / 1000).toFixed(2)} ms per edit`],
    ];
    process.stdout.write(`\nconsole bench (${EDITS} edits; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(2)})\n`);
    for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(62)} ${v}\n`);
    for (const [i, p] of loadParts.entries()) process.stdout.write(`  fresh load ${i + 1} (ms since navigation start): ${p}, first screen ${loads[i]![0].toFixed(0)}, all rows ${loads[i]![1].toFixed(0)}\n`);
  } finally {
    await browser.close();
    await mcp.close();
    await served.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
