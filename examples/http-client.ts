// The HTTP file API from code: a server embedded in this process (as `hashline serve` runs it),
// and the typed client reading and writing through it. Run: npx tsx examples/http-client.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, createHttpServer, HashlineClient, isHashlineError } from 'hashline';

const root = mkdtempSync(path.join(tmpdir(), 'hashline-example-'));
const engine = await createEngine({ root });
const { app } = await createHttpServer(engine, { tools: [] });
await app.listen({ host: '127.0.0.1', port: 0 });
try {
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const client = new HashlineClient({ baseUrl: `http://127.0.0.1:${port}` });

  await client.writeFile('notes.txt', 'one\ntwo\nthree\n');
  console.log(await client.readTextFile('notes.txt', { startLine: 2, endLine: 3 })); // "two\nthree\n"
  try {
    await client.readTextFile('../outside.txt');
  } catch (e) {
    if (isHashlineError(e)) console.log(`refused: ${e.code}`); // path_outside_root
  }
} finally {
  await app.close();
  rmSync(root, { recursive: true, force: true });
}
