// The reference filesystem server (@modelcontextprotocol/server-filesystem) as an agent uses it:
// `read_text_file` of the whole file, then `edit_file` with oldText/newText pairs taken from that
// read. Hunks a few lines apart share one pair; each oldText is widened by a line of context at a
// time (above, then below) until it occurs once in the file as read, and a pure insertion or
// deletion always carries one line of context.

import path from 'node:path';
import { connectStdio, type McpSide } from '../../lib/mcp.js';
import type { AbstractEdit, Hunk } from '../oracle.js';
import { resultText, type Agent, type AgentKind, type AgentSession, type AgentState, type Call, type TaskFile } from './agent.js';

function occurrences(text: string, needle: string): number {
  if (needle === '') return Infinity;
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && n < 2; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** oldText/newText pairs for an edit, from the lines the agent read. */
export function toPairs(lines: readonly string[], edit: AbstractEdit): Array<{ oldText: string; newText: string }> {
  const text = lines.join('\n');
  const regions: Array<{ start: number; end: number; hunks: Hunk[] }> = [];
  for (const h of edit.hunks) {
    const last = regions[regions.length - 1];
    if (last && h.start - last.end <= 2) {
      last.end = Math.max(last.end, h.end);
      last.hunks.push(h);
    } else regions.push({ start: h.start, end: h.end, hunks: [h] });
  }
  return regions.map((r) => {
    let lo = r.start;
    let hi = r.end;
    const pureChange = r.hunks.every((h) => h.rows.length === 0) || r.hunks.every((h) => h.start === h.end);
    if (pureChange || lines.slice(lo, hi).every((l) => l.trim() === '')) {
      if (lo > 0) lo--;
      else if (hi < lines.length) hi++;
    }
    let up = true;
    while (occurrences(text, lines.slice(lo, hi).join('\n')) !== 1 && (lo > 0 || hi < lines.length)) {
      if ((up && lo > 0) || hi >= lines.length) lo--;
      else hi++;
      up = !up;
    }
    const out: string[] = [];
    for (let i = lo; i <= hi; i++) {
      for (const h of r.hunks) if (h.start === i && h.end === i) out.push(...h.rows);
      if (i === hi) break;
      const h = r.hunks.find((x) => x.start === i && x.end > x.start);
      if (h) {
        out.push(...h.rows);
        i = h.end - 1;
        continue;
      }
      out.push(lines[i]!);
    }
    return { oldText: lines.slice(lo, hi).join('\n'), newText: out.join('\n') };
  });
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
    const r = await this.call('edit_file', { path: file.rel, edits: toPairs(lines, edit) }, calls);
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
    async connect(root: string): Promise<AgentSession> {
      const side = await connectStdio(process.execPath, [server, root], root);
      return { agent: new ReferenceAgent(side), close: () => side.close() };
    },
  };
}
