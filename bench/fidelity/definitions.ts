// What each agent of the fidelity bench pays for its tool list: the o200k tokens of the model-visible
// definitions and instructions its host would send every turn (hashline agents: `--tools hashline`;
// the boundary agent: `--tools boundary`; the reference agent: the reference server's list),
// measured with the SDK client, and each call's share of them over a 20-call conversation.

import os from 'node:os';
import path from 'node:path';
import { measureServer } from '../../test/helpers/context-cost.js';
import type { AgentKind } from './agents/agent.js';
import { perCallShare } from './tokens.js';

/** Each call's share of its agent's definitions, by agent id. */
export async function definitionShares(repo: string, kinds: readonly AgentKind[]): Promise<Map<string, number>> {
  const root = os.tmpdir();
  const cli = path.join(repo, 'dist/cli/main.js');
  const byFamily = new Map<string, number>();
  const tokensOf = async (family: string): Promise<number> => {
    const known = byFamily.get(family);
    if (known !== undefined) return known;
    const { cost } =
      family === 'reference'
        ? await measureServer(process.execPath, [path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root])
        : await measureServer(process.execPath, [cli, 'mcp', '--root', root, '--history', 'off', '--tools', family]);
    byFamily.set(family, cost.modelVisibleTokens);
    return cost.modelVisibleTokens;
  };
  const out = new Map<string, number>();
  for (const k of kinds) out.set(k.id, perCallShare(await tokensOf(k.family)));
  return out;
}
