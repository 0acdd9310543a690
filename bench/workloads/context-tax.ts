// The context tax: what a tool list costs an agent on every turn, before its first call. The
// official SDK client lists the tools of the shipped bin once per profile (`--tools all`,
// `hashline`, `navigation`, `boundary`) and of the reference filesystem server; a row per profile
// gives the bytes of the model-visible definitions (name, description and inputSchema as JSON, what
// hosts put into the model's context) plus the server instructions, beside the reference server's,
// with o200k tokens, the bytes per tool (the reference's beside) and the whole tools/list in the
// note. Goal: `all` within 12,000 B; the others are reported. Nothing is timed: one listing each.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { measureServer, type ContextCost } from '../../test/helpers/context-cost.js';
import { shippedBin } from '../lib/mcp.js';
import { failed, finish, type Row, type Workload } from '../lib/types.js';

const PROFILES = ['all', 'hashline', 'navigation', 'boundary'] as const;

/** The model-visible bytes `all` may cost (definitions plus instructions). */
const ALL_BUDGET = 12_000;

const perTool = (c: ContextCost) => c.modelVisible / c.tools;

function note(c: ContextCost, ref: ContextCost): string {
  return `${c.tools} tools: ${c.modelVisible} B (${c.modelVisibleTokens} o200k tokens; definitions ${c.definitions} B, instructions ${c.instructions} B), ${perTool(c).toFixed(0)} B per tool; whole tools/list ${c.wholeList} B. Reference server: ${ref.tools} tools, ${ref.modelVisible} B (${ref.modelVisibleTokens} tokens), ${perTool(ref).toFixed(0)} B per tool, whole list ${ref.wholeList} B`;
}

export const contextTax: Workload = {
  id: 'context-tax',
  async run(ctx) {
    const base = (profile: string): Omit<Row, 'status'> => ({
      id: `context-tax-${profile}`,
      title: `model-visible tool definitions + instructions, --tools ${profile} (bytes)`,
      issue: 32,
      unit: 'B',
      direction: 'lower',
      anchorName: 'reference filesystem server (its 14 tools)',
      goal: profile === 'all' ? { kind: 'absolute', bound: 'max', value: ALL_BUDGET, text: `≤ ${ALL_BUDGET} B` } : { kind: 'absolute', bound: 'report', value: Number.NaN, text: 'report' },
    });
    const ref = ctx.anchors.referenceServer;
    if (!ref) return PROFILES.map((p) => ({ ...base(p), status: 'anchor missing', note: 'reference server not installed' }));
    const root = path.join(ctx.opts.work, 'context-tax');
    mkdirSync(root, { recursive: true });
    try {
      const reference = (await measureServer(process.execPath, [ref, root])).cost;
      const rows: Row[] = [];
      for (const p of PROFILES) {
        const { cost } = await measureServer(process.execPath, [shippedBin(ctx.opts.repo), 'mcp', '--root', root, '--history', 'off', '--tools', p]);
        const row = finish({
          ...base(p),
          status: 'measured',
          hashline: cost.modelVisible,
          anchor: reference.modelVisible,
        });
        row.note = note(cost, reference);
        row.extra = { tokens: cost.modelVisibleTokens, referenceTokens: reference.modelVisibleTokens, wholeList: cost.wholeList, referenceWholeList: reference.wholeList, tools: cost.tools, perTool: perTool(cost), referencePerTool: perTool(reference) };
        rows.push(row);
      }
      return rows;
    } catch (e) {
      return PROFILES.map((p) => failed(base(p), e));
    }
  },
};
