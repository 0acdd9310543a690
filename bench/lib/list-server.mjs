// The floor of a cold start: a bare server on the official SDK that answers `tools/list` with a
// recorded list (the JSON file named by argv[2], as hashline lists its tools) and does nothing
// else. With `--hold DIR` it first reads every file under DIR into memory (the floor of a server
// that keeps a tree's bytes warm). The cold-start workload bundles it the way the shipped bin is
// bundled (scripts/bundle-cli.mjs, no ajv), so both load one minified file.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
const held = [];
const hold = args.indexOf('--hold');
if (hold >= 0) {
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) held.push(readFileSync(p));
    }
  };
  walk(args[hold + 1]);
}
const { tools } = JSON.parse(readFileSync(args[0], 'utf8'));
const server = new Server({ name: 'list', version: '0.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: `${held.length} files held` }] }));
await server.connect(new StdioServerTransport());
