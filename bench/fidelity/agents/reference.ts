// The reference filesystem server (@modelcontextprotocol/server-filesystem) as an agent uses it:
// `read_text_file` of the whole file, then `edit_file` with oldText/newText pairs taken from that
// read. Hunks a few lines apart share one pair; each oldText is widened by a line of context at a
// time (above, then below) until it occurs once in the file as read, and a pure insertion or
// deletion always carries one line of context.

import path from 'node:path';
import { connectStdio, type McpSide } from '../../lib/mcp.js';
import type { AbstractEdit } from '../oracle.js';
import { quoteRegions, rewrittenLines } from '../quote.js';
import { resultText, type Agent, type AgentKind, type AgentSession, type AgentState, type Call, type TaskFile } from './agent.js';

/**
 * oldText/newText pairs for an edit, from the lines the agent read: hunks a few lines apart share
 * a pair, each pair's oldText is widened until it occurs once, and pairs that come to overlap are
 * joined, so the pairs never share a line.
 */
export function toPairs(lines: readonly string[], edit: AbstractEdit): Array<{ oldText: string; newText: string }> {
  return quoteRegions(lines, edit).map((r) => ({ oldText: lines.slice(r.lo, r.hi).join('\n'), newText: rewrittenLines(lines, r).join('\n') }));
}

class ReferenceAgent implements Agent {
  constructor(private readonly side: McpSide) {}

  private async call(tool: string, args: Record<string, unknown>, calls: Call[]): Promise<{ ok: boolean; text: string }> {
    const r = await this.side.call(tool, args);
    const text = resultText(r);
    calls.push({ tool, request: JSON.stringify(args), reply: text });
    return { ok: r.isError !== true, text };
  }

  async read(file: TaskFile): Promise<{ state: AgentState; calls: Call[] }> {
    const calls: Call[] = [];
    const r = await this.call('read_text_file', { path: file.rel }, calls);
    // what a model takes from the text: lines without a carriage return or a leading BOM
    const lines = r.text.replace(/^\ufeff/, '').split('\n').map((l) => l.replace(/\r$/, ''));
    if (lines[lines.length - 1] === '') lines.pop();
    return { state: { view: new Map(lines.map((l, i) => [i, l])) }, calls };
  }

  async edit(file: TaskFile, state: AgentState, edit: AbstractEdit): Promise<{ ok: boolean; text: string; calls: Call[] }> {
    const calls: Call[] = [];
    const lines = [...state.view.keys()].sort((a, b) => a - b).map((k) => state.view.get(k)!);
    // a scenario's quote is sent as oldText/newText without the final newline, as read_text_file shows lines
    const edits = file.quote ? [{ oldText: file.quote.search.replace(/\n$/, ''), newText: file.quote.replace.replace(/\n$/, '') }] : toPairs(lines, edit);
    const r = await this.call('edit_file', { path: file.rel, edits }, calls);
    return { ...r, calls };
  }
}

export function referenceKind(repo: string): AgentKind {
  const server = path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
  return {
    id: 'reference',
    label: 'reference server (read_text_file + edit_file)',
    family: 'reference',
    nextCalls: ['read_text_file'],
    quotes: true,
    async connect(root: string): Promise<AgentSession> {
      const side = await connectStdio(process.execPath, [server, root], root);
      return { agent: new ReferenceAgent(side), close: () => side.close() };
    },
  };
}
