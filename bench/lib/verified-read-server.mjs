// The ceiling of GET /v1/fs/file for a Node server here: bare node:http that answers each
// `GET ...?path=NAME` with hashline's verified read by name (io/read/read-verified-sync.ts
// `readByNameSync`: the guard's checks, open with O_NOFOLLOW, fstat, the descriptor's real path,
// read, close) and does nothing else: no framework, no auth, no hooks, no range rule. With
// workers > 1 the port is shared by that many processes (node:cluster). Driven by the same load
// generator as hashline and nginx, it shows what the check itself costs per request.
// Usage: node verified-read-server.mjs REPO ROOT PORT [WORKERS]

import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [repo, root, port, workersArg] = process.argv.slice(2);
const workers = Number(workersArg ?? 1);

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  const stop = () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const dist = (p) => pathToFileURL(path.join(repo, 'dist', p)).href;
  const { mergeConfig } = await import(dist('core/config/config.js'));
  const { createEngine } = await import(dist('tools/engine.js'));
  const { readByNameSync } = await import(dist('io/read/read-verified-sync.js'));
  const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] }));
  http
    .createServer((req, res) => {
      const q = req.url.indexOf('?');
      const name = q === -1 ? null : new URLSearchParams(req.url.slice(q + 1)).get('path');
      let body = null;
      try {
        body = name === null ? null : readByNameSync(engine.guard, name, 64 * 1024);
      } catch {
        body = null;
      }
      if (body === null) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    })
    .listen(Number(port), '127.0.0.1');
}
