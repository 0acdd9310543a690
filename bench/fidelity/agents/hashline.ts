// The hashline family as an agent uses it: `fs_read` (the whole file, or the function by `symbol`
// asked for whole with `full: true`; were it elided, the interior by `line_range` as the notice
// says), then `fs_edit` with the tag of that read and line-numbered hunks in the DSL.

import { connectStdio, type McpSide } from '../../lib/mcp.js';
import type { AbstractEdit, Hunk } from '../oracle.js';
import { resultText, type Agent, type AgentKind, type AgentSession, type AgentState, type Call, type TaskFile } from './agent.js';

export interface HashlineSpawn {
  readonly command: string;
  /** Arguments before `mcp --root ROOT`. */
  readonly args: readonly string[];
  /** Working directory of the server (default: the root). */
  readonly cwd?: string;
}

export type ReadMode = 'whole' | 'symbol';

/** The DSL of an edit: one hunk per range or gap, line numbers of the file as read. */
export function toDsl(edit: AbstractEdit): string {
  const inRange = (line0: number) => edit.hunks.some((h) => h.end > h.start && line0 >= h.start && line0 < h.end);
  const out: string[] = [];
  const rows = (h: Hunk) => h.rows.map((r) => `+${r}`);
  for (const h of edit.hunks) {
    if (h.start === h.end) {
      const after = h.start >= 1 && !inRange(h.start - 1);
      out.push(after ? `insert after ${h.start}:` : `insert before ${h.start + 1}:`, ...rows(h));
    } else if (h.rows.length === 0) out.push(h.end - h.start === 1 ? `delete ${h.start + 1}` : `delete ${h.start + 1}..${h.end}`);
    else out.push(h.end - h.start === 1 ? `replace ${h.start + 1}:` : `replace ${h.start + 1}..${h.end}:`, ...rows(h));
  }
  return out.join('\n');
}

const HEADER = /^¶.*#([0-9A-Fa-f]{4})$/;
const NUMBERED = /^(\d+)\| (.*)$/;

/** The tag and numbered lines of a read's content. */
export function parseRead(text: string, into: Map<number, string>): { tag?: string; elided?: [number, number] } {
  let tag: string | undefined;
  let elided: [number, number] | undefined;
  for (const line of text.split('\n')) {
    const h = HEADER.exec(line);
    if (h) {
      tag ??= h[1]!.toUpperCase();
      continue;
    }
    const m = NUMBERED.exec(line);
    if (m) {
      into.set(Number(m[1]) - 1, m[2]!);
      continue;
    }
    const e = /lines elided; re-read with line_range "(\d+)-(\d+)"/.exec(line);
    if (e) elided = [Number(e[1]), Number(e[2])];
  }
  return { ...(tag ? { tag } : {}), ...(elided ? { elided } : {}) };
}

class HashlineAgent implements Agent {
  constructor(
    private readonly side: McpSide,
    private readonly mode: ReadMode,
    private readonly compact: boolean,
  ) {}

  private async call(tool: string, args: Record<string, unknown>, calls: Call[]): Promise<{ ok: boolean; text: string }> {
    const r = await this.side.call(tool, args);
    const text = resultText(r);
    calls.push({ tool, request: JSON.stringify(args), reply: text });
    return { ok: r.isError !== true, text };
  }

  async read(file: TaskFile): Promise<{ state: AgentState; calls: Call[] }> {
    const calls: Call[] = [];
    const view = new Map<number, string>();
    const target = this.mode === 'symbol' ? { path: file.rel, symbol: file.fn.name, full: true } : { path: file.rel };
    const first = await this.call('fs_read', { targets: [target] }, calls);
    const parsed = parseRead(first.text, view);
    const { elided } = parsed;
    // (a read that found no symbol has no tag: the agent takes the one of the read that showed the lines)
    let tag = parsed.tag;
    if (elided) {
      const more = parseRead((await this.call('fs_read', { targets: [{ path: file.rel, line_range: `${elided[0]}-${elided[1]}` }] }, calls)).text, view);
      tag ??= more.tag;
    }
    const missing = file.needed.filter((n) => n >= 0 && !view.has(n));
    if (missing.length > 0) {
      const lo = Math.min(...missing) + 1;
      const hi = Math.max(...missing) + 1;
      const more = parseRead((await this.call('fs_read', { targets: [{ path: file.rel, line_range: `${lo}-${hi}` }] }, calls)).text, view);
      tag ??= more.tag;
    }
    return { state: { ...(tag ? { tag } : {}), view }, calls };
  }

  async edit(file: TaskFile, state: AgentState, edit: AbstractEdit): Promise<{ ok: boolean; text: string; calls: Call[] }> {
    const calls: Call[] = [];
    const args: Record<string, unknown> = { targets: [{ path: file.rel, file_hash: state.tag ?? '', ops: toDsl(edit) }] };
    if (this.compact) args.reply = 'compact';
    const r = await this.call('fs_edit', args, calls);
    return { ...r, calls };
  }
}

export function hashlineKind(spawn: HashlineSpawn, mode: ReadMode, opts: { compact?: boolean } = {}): AgentKind {
  const compact = opts.compact === true;
  return {
    id: `hashline-${mode}${compact ? '-compact' : ''}`,
    label: `hashline, ${mode === 'whole' ? 'whole-file' : 'symbol'} read${compact ? ', compact reply' : ''}`,
    family: 'hashline',
    nextCalls: ['fs_read'],
    async connect(root: string): Promise<AgentSession> {
      const side = await connectStdio(spawn.command, [...spawn.args, 'mcp', '--root', root], spawn.cwd ?? root);
      return { agent: new HashlineAgent(side, mode, compact), close: () => side.close() };
    },
  };
}
