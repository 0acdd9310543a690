// `hashline mcp`: MCP over stdio. Logs go to stderr only; stdout carries the protocol. With
// --root the engine is built before the first message (a bad configuration stops the start);
// without it, the client's MCP roots decide once it has initialized (mcp/roots.ts). Each tool's
// module loads on its first call (tools/tool-loaders.ts), so a start loads the server and the listing.

import { MAX_MESSAGE_BYTES } from '../core/config/config.js';
import { createMcpServer, toolErrorResult } from '../mcp/server.js';
import { RootsBinding } from '../mcp/roots.js';
import { LimitedStdioTransport } from '../mcp/stdio-transport.js';
import { ConfigSource, locateConfig } from '../io/guard/config-file.js';
import { createEngine, type Engine } from '../tools/engine.js';
import { selectLazyTools, type LazyTool } from '../tools/tool-loaders.js';
import { clientRootRefused, ENGINE_FLAGS, engineConfigFor, noRootError, noSafeClientRoot, parseFlags, unsafeDefaultRoot, unsafeRoot } from './options.js';

const toolFlag = (raw: unknown) =>
  raw === undefined ? undefined : (raw as string[]).flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== '');

const log = (line: string) => process.stderr.write(`hashline: ${line}\n`);

export async function mcpCommand(argv: string[]): Promise<void> {
  const { values } = parseFlags('mcp', argv, ENGINE_FLAGS);
  const given = values.root as string | undefined;
  const built: Engine[] = [];
  // Without --config or HASHLINE_CONFIG, each root's own hashline.toml governs its own paths.
  const explicitConfig = values.config !== undefined || (process.env.HASHLINE_CONFIG ?? '') !== '';
  const build = async (roots: string[]) => {
    const { config, configSource } = engineConfigFor(values, roots);
    const rootConfig = explicitConfig ? undefined : (root: string) => ConfigSource.open(locateConfig(undefined, root, {}));
    const engine = await createEngine(config, { configSource, ...(rootConfig ? { rootConfig } : {}) });
    built.push(engine);
    return engine;
  };
  let server;
  let tools: LazyTool[];
  if (given !== undefined) {
    const engine = await build([given]);
    tools = selectLazyTools(engine.config.tools);
    server = createMcpServer(engine, tools);
    log(`MCP on stdio, root ${engine.guard.root}, ${tools.length} tools`);
  } else {
    // The tools are listed before the roots are known: --tools, or `tools` of a configuration file
    // named by --config or HASHLINE_CONFIG (a hashline.toml found at a root later is not read for them).
    tools = selectLazyTools(explicitConfig ? engineConfigFor(values, [process.cwd()]).config.tools : toolFlag(values.tools));
    const why = unsafeDefaultRoot();
    const binding = new RootsBinding({
      build,
      cwd: process.cwd(),
      refuseCwd: why === null ? null : noRootError(why),
      refuseRoot: (dir) => {
        const unsafe = unsafeRoot(dir);
        return unsafe === null ? null : clientRootRefused(unsafe);
      },
      noSafeRoot: noSafeClientRoot,
      log,
    });
    server = createMcpServer(() => binding.engine(), tools);
    binding.attach(server);
    log(`MCP on stdio, ${tools.length} tools; the root comes from the client's MCP roots (or --root)`);
  }
  // a call over the message limit is answered with its tool's own error result
  const served = new Map(tools.map((t) => [t.name, t.family]));
  const transport = new LimitedStdioTransport(process.stdin, process.stdout, MAX_MESSAGE_BYTES, (name, e) => {
    const family = served.get(name);
    return family === undefined ? undefined : (toolErrorResult(family, e) as Record<string, unknown>);
  });
  // what was recorded but not yet committed (an asynchronous store) is committed before leaving
  transport.onclose = () => void Promise.allSettled(built.map((e) => e.history.close())).finally(() => process.exit(0));
  await server.connect(transport);
}
