// What the harness asks of a tool family: read a file the way an agent would before an edit, then
// send the edit the way that family expresses it. Each family is one small adapter over a real MCP
// session (the official SDK client over stdio); a third family is one more file like these.

import type { FunctionSpan } from '../corpus.js';
import type { AbstractEdit } from '../oracle.js';
import type { Block } from '../quote.js';

/** One tool call: the arguments the model sends (JSON) and the text it reads back. */
export interface Call {
  readonly tool: string;
  readonly request: string;
  readonly reply: string;
}

export interface TaskFile {
  /** The path the agent passes, relative to the server's root. */
  readonly rel: string;
  /** The function the edit is in (a symbol read asks for it by name). */
  readonly fn: FunctionSpan;
  /** 0-based lines the edit touches or anchors on: a read must show them. */
  readonly needed: readonly number[];
  /**
   * The quote a scenario makes the agent send (a misquote, a repeated block) instead of its own:
   * one search/replace block of whole lines. Only families that place edits by text take it.
   */
  readonly quote?: Block;
}

/** What the agent knows after its read: the tag it will send back, and the lines it saw (0-based). */
export interface AgentState {
  readonly tag?: string;
  /** The whole file's SHA-256 as the read reported it (the boundary family's expectedSha256). */
  readonly sha256?: string;
  readonly view: ReadonlyMap<number, string>;
}

export interface ReadOutcome {
  readonly state: AgentState;
  readonly calls: readonly Call[];
}

export interface EditOutcome {
  /** False when the tool answered with an error (a refusal). */
  readonly ok: boolean;
  readonly text: string;
  readonly calls: readonly Call[];
  /** The boundary family: the cascade step that placed each block (file_patch matchMethods). */
  readonly methods?: readonly string[];
  /** The boundary family: the error code of a refusal. */
  readonly code?: string;
}

/** What a refusal is judged against: whether the file changed after the read, and the refusal the scenario calls for. */
export interface RefusalContext {
  readonly drifted: boolean;
  /** A second session edited at the same time: the edit that came first met an unchanged file. */
  readonly concurrent: boolean;
  readonly expected?: string;
  /** True when the intended result parses worse than the file (the edit itself breaks the syntax). */
  breaksSyntax(): boolean;
}

export type Family = 'hashline' | 'reference' | 'boundary';

export interface Agent {
  read(file: TaskFile): Promise<ReadOutcome>;
  edit(file: TaskFile, state: AgentState, edit: AbstractEdit): Promise<EditOutcome>;
}

export interface AgentSession {
  readonly agent: Agent;
  close(): Promise<void>;
}

export interface AgentKind {
  readonly id: string;
  readonly label: string;
  readonly family: Family;
  /** Starts a session of this agent on `root` (a second call gives an independent second session). */
  connect(root: string): Promise<AgentSession>;
  /** The tool names a refusal must name as the next call to count as clear. */
  readonly nextCalls: readonly string[];
  /** The family places edits by quoted text, so scenarios that hand it a quote apply. */
  readonly quotes?: boolean;
  /** Every edit carries the hash of its read: an edit of a file that changed since must be refused. */
  readonly hashChecked?: boolean;
  /** The family's own rule for a clear refusal (default: `clearRefusal` with nextCalls). */
  clear?(text: string, ctx: RefusalContext): boolean;
}

/** The text of every text block of a result. */
export function resultText(r: { content?: unknown }): string {
  const blocks = Array.isArray(r.content) ? (r.content as Array<{ type?: string; text?: string }>) : [];
  return blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n');
}
