// Runs every scenario for every target through every agent: writes the file, lets the agent read
// it, makes the scenario's change, lets the agent send its edit, and judges what is on disk. The
// case of a (target, scenario) pair is built once and replayed through each agent, so all tools
// face the same files and the same changes.

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Agent, AgentKind, AgentSession, Call, TaskFile } from './agents/agent.js';
import { clearRefusal, judge, type Judged } from './classify.js';
import type { Lang, Target } from './corpus.js';
import { encodeDoc, viewOf } from './doc.js';
import { EDIT_KINDS, makeEdit } from './edits.js';
import { encodeExpectPlain, type AbstractEdit, type EditKind } from './oracle.js';
import { Rng } from './rng.js';
import type { Case, Scenario } from './scenarios.js';
import { parsesWorse } from './syntax.js';

export interface TaskResult {
  readonly kind: string;
  readonly scenario: string;
  readonly index: number;
  readonly lang: Lang;
  readonly lines: number;
  readonly editKind: EditKind;
  readonly judged: Judged;
  /** The calls of the read and the edit (kept only where tokens are counted). */
  readonly read?: readonly Call[];
  readonly edit?: readonly Call[];
  /** The reply text of a wrong apply, a crash or a refusal (a sample for the report). */
  readonly reply?: string;
  /** The boundary family: the cascade step that placed each block, or the code of the refusal. */
  readonly methods?: readonly string[];
  readonly code?: string;
}

export interface RunOptions {
  readonly root: string;
  readonly seed: number;
  readonly targets: readonly Target[];
  readonly kinds: readonly AgentKind[];
  readonly scenarios: readonly Scenario[];
  /** Which (agent, scenario) pairs run; default all. */
  readonly runs?: (kind: AgentKind, scenario: Scenario) => boolean;
  /** Which (agent, scenario) pairs keep their calls for token counts. */
  readonly keepCalls?: (kind: AgentKind, scenario: Scenario) => boolean;
  readonly log?: (line: string) => void;
}

export interface PreparedEdit {
  readonly target: Target;
  readonly edit: AbstractEdit;
  readonly index: number;
}

/** The edit of each target (kinds take turns), dropping targets where no kind fits. */
export function prepareEdits(targets: readonly Target[], seed: number): PreparedEdit[] {
  const out: PreparedEdit[] = [];
  targets.forEach((target, index) => {
    const edit = makeEdit(target, EDIT_KINDS[index % EDIT_KINDS.length]!, Rng.derive(seed, 'edit', index));
    if (edit) out.push({ target, edit, index });
  });
  return out;
}

/** 0-based lines a read must show for an edit: replaced lines, and both sides of an insertion. */
function needed(edit: AbstractEdit, total: number): number[] {
  const out = new Set<number>();
  for (const h of edit.hunks) {
    if (h.start === h.end) {
      if (h.start > 0) out.add(h.start - 1);
      if (h.start < total) out.add(h.start);
    } else for (let i = h.start; i < h.end; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

class Sessions {
  private main: AgentSession | undefined;
  private second: AgentSession | undefined;
  constructor(
    readonly kind: AgentKind,
    /** This kind's own root (a folder of the run's root named by the kind). */
    readonly root: string,
  ) {
    mkdirSync(root, { recursive: true });
  }
  async agent(): Promise<Agent> {
    this.main ??= await this.kind.connect(this.root);
    return this.main.agent;
  }
  async partner(): Promise<Agent> {
    this.second ??= await this.kind.connect(this.root);
    return this.second.agent;
  }
  /** After a crash: both sessions are started again on next use. */
  async reset(): Promise<void> {
    await this.close();
  }
  async close(): Promise<void> {
    const all = [this.main, this.second];
    this.main = undefined;
    this.second = undefined;
    await Promise.all(all.map((s) => s?.close().catch(() => undefined)));
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function runCase(s: Sessions, scenario: Scenario, c: Case, p: PreparedEdit, keep: boolean): Promise<TaskResult> {
  // each agent kind has a root of its own, so every tool is handed the same relative path
  const dir = path.join(s.root, scenario.id);
  mkdirSync(dir, { recursive: true });
  const name = `${p.index}-${path.basename(p.target.file.source)}`;
  const abs = path.join(dir, name);
  const rel = `${scenario.id}/${name}`;
  const base = { kind: s.kind.id, scenario: scenario.id, index: p.index, lang: p.target.file.lang, lines: p.target.file.lines.length, editKind: p.edit.kind };
  const done = (judged: Judged, extra: Partial<TaskResult> = {}): TaskResult => ({ ...base, judged, ...extra });
  writeFileSync(abs, encodeDoc(c.initial));
  const quoted = c.quote ? Array.from({ length: c.quote.hi - c.quote.lo }, (_, k) => c.quote!.lo + k) : [];
  const lines = [...new Set([...needed(p.edit, c.initial.lines.length), ...quoted])].sort((a, b) => a - b);
  const file: TaskFile = { rel, fn: p.target.fn, needed: lines, ...(c.quote ? { quote: c.quote.block } : {}) };
  try {
    const agent = await s.agent();
    const read = await agent.read(file);
    const shown = viewOf(c.initial);
    for (const n of file.needed) {
      const got = read.state.view.get(n);
      if (got !== shown[n]!.replace(/^\ufeff/, '')) return done({ outcome: 'n/a', note: `the read did not show line ${n + 1} as written` });
    }
    let otherOk = false;
    let ours;
    const b = c.between;
    if (b.kind === 'external') writeFileSync(abs, encodeDoc(b.live));
    if (b.kind === 'prior') {
      const prior = await agent.edit(file, read.state, b.edit);
      if (!prior.ok) return done({ outcome: 'n/a', note: `the prior edit was refused: ${prior.text.split('\n')[0]}` });
    }
    if (b.kind === 'concurrent') {
      const partner = await s.partner();
      const otherFile: TaskFile = { ...file, needed: needed(b.edit, c.initial.lines.length) };
      const otherRead = await partner.read(otherFile);
      const [mine, other] = await Promise.all([agent.edit(file, read.state, p.edit), partner.edit(otherFile, otherRead.state, b.edit)]);
      ours = mine;
      otherOk = other.ok;
    } else ours = await agent.edit(file, read.state, p.edit);
    const disk = readFileSync(abs);
    // a hash-checked family must refuse every edit of a file that changed since its read; with a
    // second session, the edit that came first met an unchanged file
    const first = b.kind === 'concurrent' && !otherOk;
    const strict = s.kind.hashChecked === true && scenario.changes;
    const kind = s.kind;
    const judged = judge({
      changes: strict ? false : scenario.changes,
      ok: ours.ok,
      text: ours.text,
      disk,
      okExpect: strict && !first ? [] : c.ok(otherOk),
      refusedExpect: c.refused(otherOk),
      clear: (text) => {
        if (!kind.clear) return clearRefusal(text, kind.nextCalls);
        const breaksSyntax = () => c.ok(otherOk).some((e) => parsesWorse(p.target, encodeExpectPlain(e).toString('utf8').replace(/^\ufeff/, '')));
        return kind.clear(text, { drifted: scenario.changes, concurrent: b.kind === 'concurrent', ...(scenario.refusal ? { expected: scenario.refusal } : {}), breaksSyntax });
      },
    });
    const sample = judged.outcome === 'wrong' || judged.outcome === 'refused' ? { reply: ours.text.slice(0, 4000) } : {};
    const cascade = { ...(ours.methods ? { methods: ours.methods } : {}), ...(ours.code ? { code: ours.code } : {}) };
    return done(judged, { ...sample, ...cascade, ...(keep ? { read: read.calls, edit: ours.calls } : {}) });
  } catch (e) {
    await s.reset();
    return done({ outcome: 'crash', note: message(e).split('\n')[0]! });
  } finally {
    rmSync(abs, { force: true });
  }
}

export async function runAll(opts: RunOptions, prepared: readonly PreparedEdit[]): Promise<TaskResult[]> {
  const results: TaskResult[] = [];
  const sessions = opts.kinds.map((k) => new Sessions(k, path.join(opts.root, k.id)));
  try {
    for (const scenario of opts.scenarios) {
      const active = sessions.filter((s) => (!scenario.quoted || s.kind.quotes === true) && (opts.runs?.(s.kind, scenario) ?? true));
      if (active.length === 0) continue;
      const t0 = Date.now();
      const spent = new Map<string, number>();
      let built = 0;
      for (const p of prepared) {
        const c = scenario.build({ target: p.target, edit: p.edit, rng: Rng.derive(opts.seed, scenario.id, p.index), index: p.index });
        if (c === null) {
          for (const s of active) results.push({ kind: s.kind.id, scenario: scenario.id, index: p.index, lang: p.target.file.lang, lines: p.target.file.lines.length, editKind: p.edit.kind, judged: { outcome: 'n/a', note: 'scenario does not apply' } });
          continue;
        }
        built++;
        for (const s of active) {
          const t1 = Date.now();
          results.push(await runCase(s, scenario, c, p, opts.keepCalls?.(s.kind, scenario) ?? false));
          spent.set(s.kind.id, (spent.get(s.kind.id) ?? 0) + Date.now() - t1);
        }
      }
      const per = [...spent].map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(', ');
      opts.log?.(`${scenario.id}: ${built} cases x ${active.length} agents in ${((Date.now() - t0) / 1000).toFixed(1)} s (${per})`);
    }
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
  return results;
}
