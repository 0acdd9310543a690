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

/** Hunks closer than this many lines share one oldText/newText pair. */
const GROUP = 8;

interface Region {
  lo: number;
  hi: number;
  hunks: Hunk[];
}

/** Widens a region by a line at a time (above, then below) until its text occurs once in the file as read. */
function widen(lines: readonly string[], text: string, r: Region): void {
  const pure = r.hunks.every((h) => h.rows.length === 0) || r.hunks.every((h) => h.start === h.end);
  if (pure || lines.slice(r.lo, r.hi).every((l) => l.trim() === '')) {
    if (r.lo > 0) r.lo--;
    else if (r.hi < lines.length) r.hi++;
  }
  let up = true;
  while (occurrences(text, lines.slice(r.lo, r.hi).join('\n')) !== 1 && (r.lo > 0 || r.hi < lines.length)) {
    if ((up && r.lo > 0) || r.hi >= lines.length) r.lo--;
    else r.hi++;
    up = !up;
  }
}

/** The region's lines with its hunks applied. */
function rewritten(lines: readonly string[], r: Region): string {
  const out: string[] = [];
  for (let i = r.lo; i <= r.hi; i++) {
    for (const h of r.hunks) if (h.start === i && h.end === i) out.push(...h.rows);
    if (i === r.hi) break;
    const h = r.hunks.find((x) => x.start === i && x.end > x.start);
    if (h) {
      out.push(...h.rows);
      i = h.end - 1;
      continue;
    }
    out.push(lines[i]!);
  }
  return out.join('\n');
}

/**
 * oldText/newText pairs for an edit, from the lines the agent read: hunks a few lines apart share
 * a pair, each pair's oldText is widened until it occurs once, and pairs that come to overlap are
 * joined, so the pairs never share a line.
 */
export function toPairs(lines: readonly string[], edit: AbstractEdit): Array<{ oldText: string; newText: string }> {
  const text = lines.join('\n');
  let regions: Region[] = [];
  for (const h of edit.hunks) {
    const last = regions[regions.length - 1];
    if (last && h.start - last.hi <= GROUP) {
      last.hi = Math.max(last.hi, h.end);
      last.hunks.push(h);
    } else regions.push({ lo: h.start, hi: h.end, hunks: [h] });
  }
  for (;;) {
    for (const r of regions) widen(lines, text, r);
    const joined: Region[] = [];
    for (const r of regions) {
      const last = joined[joined.length - 1];
      if (last && r.lo <= last.hi) {
        last.hi = Math.max(last.hi, r.hi);
        last.hunks.push(...r.hunks);
      } else joined.push({ ...r, hunks: [...r.hunks] });
    }
    if (joined.length === regions.length) break;
    regions = joined;
  }
  return regions.map((r) => ({ oldText: lines.slice(r.lo, r.hi).join('\n'), newText: rewritten(lines, r) }));
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
