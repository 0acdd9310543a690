// A spawned `hashline serve` (the built CLI) with a token, and a browser page logged in to its
// console: what the console bench and `npm run screenshots` drive. The children inherit
// XDG_STATE_HOME, so every process of the root shares one SQLite history.

import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';

export interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServe(cli: string, root: string, tokenFile: string, extra: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [cli, 'serve', '--root', root, '--port', '0', '--token-file', tokenFile, ...extra], {
    cwd: root,
    env: { ...process.env, HASHLINE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`hashline serve exited ${code}: ${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A new page logged in to the console at `url` (through the login form, as a person would). */
export async function loggedInPage(browser: Browser, url: string, token: string, viewport = { width: 1366, height: 768 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${url}/`);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
  await page.waitForFunction(() => document.getElementById('live')?.textContent?.includes('live'));
  return page;
}
