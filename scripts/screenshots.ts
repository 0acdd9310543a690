// `npm run screenshots` (after `npm run build`): pictures of the web console for the README, made
// in Debian's Chromium against a spawned `hashline serve` while a spawned `hashline mcp` (the
// official SDK client over stdio) edits a small project, an HTTP PUT replaces a file and an editor
// changes one on disk. Writes docs/img/console-feed.png, console-timeline.png, console-narrow.png
// (420 px wide) and console-guard.png. Not part of `npm test`.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loggedInPage, startServe } from '../bench/lib/console-rig.js';
import { connectStdio, hashlineCli, okText } from '../bench/lib/mcp.js';
import { browserMissing, launchBrowser } from '../test/helpers/browser.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(REPO, 'docs/img');
const TOKEN = 'screenshot-token';

const FILES: Record<string, string> = {
  'src/server.ts': [
    "import { createServer } from 'node:http';",
    "import { route } from './routes/index.js';",
    '',
    'const PORT = 8080;',
    '',
    'export function start(): void {',
    '  const server = createServer((req, res) => route(req, res));',
    '  server.listen(PORT);',
    '}',
    '',
  ].join('\n'),
  'src/routes/index.ts': [
    "import type { IncomingMessage, ServerResponse } from 'node:http';",
    "import { users } from './users.js';",
    '',
    'export function route(req: IncomingMessage, res: ServerResponse): void {',
    "  if (req.url === '/users') return users(req, res);",
    '  res.statusCode = 404;',
    '  res.end();',
    '}',
    '',
  ].join('\n'),
  'src/routes/users.ts': [
    "import type { IncomingMessage, ServerResponse } from 'node:http';",
    '',
    'export function users(_req: IncomingMessage, res: ServerResponse): void {',
    "  res.setHeader('content-type', 'application/json');",
    "  res.end(JSON.stringify([{ id: 1, name: 'Ada' }]));",
    '}',
    '',
  ].join('\n'),
  'README.md': '# demo service\n\nA small HTTP service.\n',
  '.env': 'DATABASE_URL=postgres://app:secret@db/app\n',
};

const tagOf = (r: CallToolResult) => {
  okText(r);
  return (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
};

async function main(): Promise<void> {
  const missing = browserMissing();
  if (missing) throw new Error(missing);
  const cli = hashlineCli(REPO);
  // a fixed, short root, as the pictures show it
  const work = path.join(os.tmpdir(), 'hashline-demo');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  const root = path.join(work, 'project');
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  process.env.XDG_STATE_HOME = path.join(work, 'state');
  const tokenFile = path.join(work, 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  const served = await startServe(cli, root, tokenFile, ['--read-block', '.env', '--block', 'dist']);
  const agent = await connectStdio(process.execPath, [cli, 'mcp', '--root', root], root, 'coding-agent');
  const browser = await launchBrowser();
  try {
    const edit = async (file: string, ops: string) => {
      const tag = tagOf(await agent.call('fs_read', { targets: [{ path: file }] }));
      tagOf(await agent.call('fs_edit', { targets: [{ path: file, file_hash: tag, ops }] }));
    };
    await edit('src/server.ts', "replace 4:\n+const PORT = Number(process.env.PORT ?? 8080);");
    await agent.call('fs_write', {
      targets: [{ path: 'src/routes/health.ts', text: "import type { IncomingMessage, ServerResponse } from 'node:http';\n\nexport function health(_req: IncomingMessage, res: ServerResponse): void {\n  res.end('ok');\n}\n" }],
    });
    await edit('src/routes/index.ts', "insert after 2:\n+import { health } from './health.js';\ninsert after 5:\n+  if (req.url === '/health') return health(req, res);");
    await edit('src/server.ts', "replace 7-8:\n+  const server = createServer((req, res) => route(req, res));\n+  server.listen(PORT, () => console.log(`listening on ${PORT}`));");
    await agent.call('fs_write', { targets: [{ path: '.env', text: 'DATABASE_URL=postgres://app:rotated@db/app\n' }] });
    const put = await fetch(`${served.url}/v1/fs/file?path=README.md`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '# demo service\n\nA small HTTP service.\n\n`GET /health` answers `ok`.\n',
    });
    if (put.status !== 204) throw new Error(`PUT README.md: ${put.status}`);

    // an editor changes a file the agent has read; its next read sees the change (changed outside hashline)
    okText(await agent.call('fs_read', { targets: [{ path: 'src/routes/users.ts' }] }));
    writeFileSync(path.join(root, 'src/routes/users.ts'), FILES['src/routes/users.ts']!.replace("'Ada' }", "'Ada' }, { id: 2, name: 'Grace' }"));
    okText(await agent.call('fs_read', { targets: [{ path: 'src/routes/users.ts' }] }));

    mkdirSync(OUT, { recursive: true });
    const page = await loggedInPage(browser, served.url, TOKEN, { width: 1280, height: 720 });
    await page.waitForSelector('#feed tbody tr[data-path="README.md"]');
    await page.screenshot({ path: path.join(OUT, 'console-feed.png') });

    await page.click('#feed tbody tr[data-path="src/server.ts"] a');
    await page.waitForSelector('#timeline > li .diff-btn');
    await page.click('#timeline > li:first-child .diff-btn');
    await page.check('input[name=layout][value=split]');
    await page.waitForSelector('#diff table.diff.split');
    await page.screenshot({ path: path.join(OUT, 'console-timeline.png') });

    // a narrow window: each row a short card
    const narrow = await loggedInPage(browser, served.url, TOKEN, { width: 420, height: 860 });
    await narrow.waitForSelector('#feed tbody tr[data-path="README.md"]');
    await narrow.screenshot({ path: path.join(OUT, 'console-narrow.png') });
    await narrow.close();

    await page.click('#nav-guard');
    await page.waitForSelector('#guard dl');
    await page.screenshot({ path: path.join(OUT, 'console-guard.png') });
    process.stdout.write(`wrote ${['console-feed.png', 'console-timeline.png', 'console-narrow.png', 'console-guard.png'].map((f) => path.join('docs/img', f)).join(', ')}\n`);
  } finally {
    await browser.close();
    await agent.close();
    await served.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
