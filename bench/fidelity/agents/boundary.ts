// The boundary family as an agent uses it for a function edit: `file_read` of the function by
// `symbols` (which also gives the whole file's SHA-256; a text `range` read fills in lines it did
// not show, with a few lines around them), then `file_patch` with `aider_block` search/replace blocks quoted from that read and
// the read's hash as expectedSha256. A quote is widened until it occurs once in what the agent saw;
// when the file has it elsewhere too (aider_ambiguous), the agent quotes the whole function once
// more. A scenario's own quote (a misquote, a repeated block) is sent as it is, once.

import { connectStdio, type McpSide } from '../../lib/mcp.js';
import type { AbstractEdit } from '../oracle.js';
import { blockOf, quoteRegions, type Block } from '../quote.js';
import type { HashlineSpawn } from './hashline.js';
import { resultText, type Agent, type AgentKind, type AgentSession, type AgentState, type Call, type EditOutcome, type RefusalContext, type TaskFile } from './agent.js';

interface EnvelopeError {
  readonly code?: string;
  readonly suggestedNextCall?: string;
}

interface Envelope {
  readonly ok?: boolean;
  readonly data?: { files?: Array<Record<string, unknown>> };
  readonly error?: EnvelopeError;
}

/** The reply envelope of a boundary tool, from the text the model reads. */
export function parseEnvelope(text: string): Envelope | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' ? (v as Envelope) : undefined;
  } catch {
    return undefined;
  }
}

/** Lines of a read's content, as a model takes them: no carriage returns, no BOM. */
function contentLines(content: string, first: number, into: Map<number, string>): void {
  const lines = content.replace(/^\ufeff/, '').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((l, k) => into.set(first + k, l.replace(/\r$/, '')));
}

/**
 * A refusal is clear when it carries a next call and the code the situation calls for: after the
 * file changed, stale_or_missing_hash (with a second session, the edit that came first may meet
 * the parse check instead); where a scenario calls for a refusal, that code; otherwise
 * an aider code (the quote could not be placed with certainty), or candidate_parse_error when the
 * edit itself breaks the syntax (when it does not, the check caught a block placed where the edit
 * does not fit: not a clear refusal).
 */
export function boundaryClear(text: string, ctx: RefusalContext): boolean {
  const e = parseEnvelope(text)?.error;
  if (!e?.code || !e.suggestedNextCall) return false;
  if (ctx.drifted) return e.code === 'stale_or_missing_hash' || (ctx.concurrent && e.code === 'candidate_parse_error' && ctx.breaksSyntax());
  if (ctx.expected) return e.code === ctx.expected;
  if (e.code === 'candidate_parse_error') return ctx.breaksSyntax();
  return e.code.startsWith('aider_');
}

/** Lines of context a text read takes around the lines it must show. */
const CONTEXT = 3;

/** The contiguous lines of the view around the lines the edit needs. */
function visible(view: ReadonlyMap<number, string>, needed: readonly number[]): [number, number] {
  let lo = Math.min(...needed);
  let hi = Math.max(...needed) + 1;
  while (view.has(lo - 1)) lo--;
  while (view.has(hi)) hi++;
  return [lo, hi];
}

class BoundaryAgent implements Agent {
  constructor(private readonly side: McpSide) {}

  private async call(tool: string, args: Record<string, unknown>, calls: Call[]): Promise<{ ok: boolean; text: string; env: Envelope | undefined }> {
    const r = await this.side.call(tool, args);
    const text = resultText(r);
    calls.push({ tool, request: JSON.stringify(args), reply: text });
    return { ok: r.isError !== true, text, env: parseEnvelope(text) };
  }

  async read(file: TaskFile): Promise<{ state: AgentState; calls: Call[] }> {
    const calls: Call[] = [];
    const view = new Map<number, string>();
    const first = await this.call('file_read', { files: [{ filePath: file.rel, symbols: [file.fn.name] }] }, calls);
    const entry = first.env?.data?.files?.[0] as { sha256?: string; ast?: { symbols?: Array<{ found?: boolean; lines?: [number, number]; content?: string }> } } | undefined;
    let sha256 = entry?.sha256;
    const sym = entry?.ast?.symbols?.[0];
    if (sym?.found && sym.lines && sym.content !== undefined) contentLines(sym.content, sym.lines[0], view);
    const missing = file.needed.filter((n) => !view.has(n));
    if (missing.length > 0) {
      // the lines and a few around them, so a quote can take a line of context that is not blank
      const range = { start: Math.max(0, Math.min(...missing) - CONTEXT), end: Math.max(...missing) + 1 + CONTEXT };
      const more = await this.call('file_read', { files: [{ filePath: file.rel, mode: 'text', range }] }, calls);
      const e = more.env?.data?.files?.[0] as { sha256?: string; content?: string; lines?: { returned?: [number, number] } } | undefined;
      if (e?.content !== undefined) contentLines(e.content, e.lines?.returned?.[0] ?? range.start, view);
      sha256 ??= e?.sha256;
    }
    return { state: { ...(sha256 ? { sha256 } : {}), view }, calls };
  }

  private async patch(file: TaskFile, sha256: string, blocks: readonly Block[], calls: Call[]): Promise<EditOutcome> {
    const args = { files: { [file.rel]: { patchStrategy: 'aider_block', expectedSha256: sha256, aiderBlocks: blocks } } };
    const r = await this.call('file_patch', args, calls);
    const methods = (r.env?.data?.files?.[0]?.matchMethods as string[] | undefined) ?? [];
    const code = r.env?.error?.code;
    return { ok: r.ok, text: r.text, calls, ...(r.ok ? { methods } : {}), ...(code ? { code } : {}) };
  }

  async edit(file: TaskFile, state: AgentState, edit: AbstractEdit): Promise<EditOutcome> {
    const calls: Call[] = [];
    const sha = state.sha256 ?? '';
    if (file.quote) return this.patch(file, sha, [file.quote], calls);
    const size = Math.max(...state.view.keys()) + 1;
    const lines = Array.from({ length: size }, (_, i) => state.view.get(i) ?? '');
    const bounds = visible(state.view, file.needed);
    const first = await this.patch(file, sha, quoteRegions(lines, edit, { bounds }).map((r) => blockOf(lines, r)), calls);
    if (first.code !== 'aider_ambiguous') return first;
    // unique in the function, not in the file: quote all of what was read
    return this.patch(file, sha, [blockOf(lines, { lo: bounds[0], hi: bounds[1], hunks: [...edit.hunks] })], calls);
  }
}

export function boundaryKind(spawn: HashlineSpawn): AgentKind {
  return {
    id: 'boundary',
    label: 'boundary (file_read + file_patch aider blocks)',
    family: 'boundary',
    nextCalls: ['file_read', 'file_hash'],
    quotes: true,
    hashChecked: true,
    clear: boundaryClear,
    async connect(root: string): Promise<AgentSession> {
      const side = await connectStdio(spawn.command, [...spawn.args, 'mcp', '--root', root], spawn.cwd ?? root);
      return { agent: new BoundaryAgent(side), close: () => side.close() };
    },
  };
}
