// The transport floor of an MCP stdio tool call: a server built on the official SDK whose one tool
// `replay` answers with a recorded CallToolResult and does no other work. argv names one JSON file
// per reply; the call's argument `i` picks one (default 0). Driven by the same client, it shows
// what the transport and the client cost for a reply of that size and shape, whoever computes it.

import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const replies = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, 'utf8')));
const server = new Server({ name: 'replay', version: '0.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'replay', inputSchema: { type: 'object' } }] }));
server.setRequestHandler(CallToolRequestSchema, async (req) => replies[Number(req.params.arguments?.i ?? 0)]);
await server.connect(new StdioServerTransport());
