// The transport floor of an HTTP download: bare node:http answering every GET with the bytes of one
// file held in memory (read at start), and nothing else: no auth, no checks, no packing.
// Usage: node blob-server.mjs FILE PORT

import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, port] = process.argv.slice(2);
const body = readFileSync(file);
http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-tar', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1');
