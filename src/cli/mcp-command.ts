// `hashline mcp`: MCP over stdio. Logs go to stderr only; stdout carries the protocol.

import { createMcpServer } from '../mcp/server.js';
import { LimitedStdioTransport } from '../mcp/stdio-transport.js';
import { createEngine } from '../tools/engine.js';
import { selectTools } from '../tools/registry.js';
import { parseEngineArgs } from './options.js';

export async function mcpCommand(argv: string[]): Promise<void> {
  const { config, configSource } = parseEngineArgs(argv, {});
  const tools = selectTools(config.tools);
  const engine = await createEngine(config, { configSource });
  const server = createMcpServer(engine, tools);
  const transport = new LimitedStdioTransport();
  // what was recorded but not yet committed (an asynchronous store) is committed before leaving
  transport.onclose = () => void engine.history.close().finally(() => process.exit(0));
  await server.connect(transport);
  process.stderr.write(`hashline: MCP on stdio, root ${engine.guard.root}, ${tools.length} tools\n`);
}
