// The task agents do most, over MCP stdio, in a 2,000-line TypeScript file of 80 functions of 23
// lines: read one function, then rewrite it. hashline: `fs_read` of the function by `symbol`, then
// `fs_edit` replacing its 23 lines (atomic, history on); the reference server: `read_text_file` of
// the whole file, then `edit_file` of the same 23 lines to the same text. Both change the same
// function in every round, so each read follows the previous round's edit (a fresh text to parse).
// Rows: the symbol read alone against the whole read (p50), and the pair of calls (p50 of their sum).
// Floors, run after each pair: a bare SDK server replaying hashline's recorded replies (the read's;
// the read's and the edit's) plus, for the pair, one atomic replace and one history commit of the file.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { replaceFloorMs, HistoryCommitFloor, startReplay, type Replay } from '../lib/floors.js';
import { connectHashline, connectReference, okText, type McpSide } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';
import { EDIT_FLOOR, firstResult } from './edit.js';

const FUNCTIONS = 80;
/** Lines per function (signature, 21 statements, closing brace); a blank line and a comment follow each. */
export const FN_LINES = 23;
/** The function each round reads and rewrites. */
export const TARGET = 41;

/** The lines of function `k`; `salt` goes into each statement's comment (a rewrite of the function). */
export function fnLines(k: number, salt: string): string[] {
  const out = [`export function handler${k}(input: Record<string, number>, scale: number): number {`];
  for (let j = 0; j < FN_LINES - 3; j++) out.push(`  const v${j} = (input['key${j}'] ?? ${j}) * scale + ${k * 100 + j}; // ${salt}step ${j}`);
  out.push(`  return v0 + v${FN_LINES - 4} + ${k};`);
  out.push('}');
  return out;
}

/** The bench's file; `saltOf(k)` salts function `k` (none by default). */
export function fileText(saltOf: (k: number) => string = () => ''): string {
  const out: string[] = [];
  for (let k = 0; k < FUNCTIONS; k++) out.push(`// handler ${k}: generated for the hashline benchmarks`, ...fnLines(k, saltOf(k)), '');
  return `${out.join('\n')}\n`;
}

/** 1-based first line of function `k`. */
const firstLine = (k: number) => k * (FN_LINES + 2) + 2;

export const symbolEdit: Workload = {
  id: 'symbol-edit',
  async run(ctx) {
    const readRow: Omit<Row, 'status'> = {
      id: 'read-symbol-2000',
      title: 'read of one function by symbol in a 2,000-line TypeScript file (fs_read symbol), p50',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'read_text_file of the whole file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.5, text: '≤ 0.5×' },
    };
    const pairRow: Omit<Row, 'status'> = {
      id: 'symbol-read-edit',
      title: 'read one function by symbol + rewrite its 23 lines, 2,000-line TypeScript file (fs_read + fs_edit), p50',
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'read_text_file + edit_file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.7, text: '≤ 0.7×' },
    };
    if (!ctx.tools.has('fs_read') || !ctx.tools.has('fs_edit')) return [notBuilt(readRow, 'fs_read'), notBuilt(pairRow, 'fs_edit')];
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...readRow, status: 'anchor missing' }, { ...pairRow, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'symbol-edit');
    mkdirSync(root, { recursive: true });
    const text = fileText();
    for (const f of ['h.ts', 'r.ts', 'f.ts']) writeFileSync(path.join(root, f), text);
    const rFile = path.join(root, 'r.ts');
    const fFile = path.join(root, 'f.ts');
    const a: McpSide = await connectHashline(ctx.opts.repo, root);
    const b: McpSide = await connectReference(ref, root);
    const commits = new HistoryCommitFloor(ctx.opts.work);
    let replay: Replay | undefined;
    const name = `handler${TARGET}`;
    const start = firstLine(TARGET);
    const end = start + FN_LINES - 1;
    const readSymbol = async () => {
      const r = await a.call('fs_read', { targets: [{ path: 'h.ts', symbol: name }] });
      const tag = firstResult(r).file_hash;
      const content = (r.structuredContent as { results: { content: string }[] }).results[0]!.content;
      if (!content.includes(`${start}|`) || !content.includes(`${end}|`)) throw new Error(`the symbol read did not show lines ${start}-${end}: ${content.slice(0, 200)}`);
      return { r, tag };
    };
    const editOps = (salt: string) => `replace ${start}..${end}:\n${fnLines(TARGET, salt).map((l) => `+${l}`).join('\n')}`;
    let refBody = fnLines(TARGET, '').join('\n');
    const refRound = async (salt: string) => {
      const read = okText(await b.call('read_text_file', { path: rFile }));
      if (!read.includes(refBody)) throw new Error('the reference read does not hold the function');
      const next = fnLines(TARGET, salt).join('\n');
      okText(await b.call('edit_file', { path: rFile, edits: [{ oldText: refBody, newText: next }] }));
      refBody = next;
    };
    try {
      // one round each, untimed; the floor replays the replies of a round of the same shape
      const warm = await readSymbol();
      const edited = await a.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: warm.tag, ops: editOps('w ') }] });
      firstResult(edited);
      await refRound('w ');
      replay = await startReplay(ctx.opts.repo, ctx.opts.work, 'symbol-edit', [warm.r, edited]);
      const bytes = readFileSync(path.join(root, 'h.ts'));
      const readTimes: number[] = [];
      const refReadTimes: number[] = [];
      const floorRead: number[] = [];
      const s = await alternateWithFloor(
        ctx.opts.reps * 3,
        (i) =>
          timeMs(async () => {
            let tag = '';
            readTimes.push(await timeMs(async () => (tag = (await readSymbol()).tag)));
            firstResult(await a.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: tag, ops: editOps(`h${i} `) }] }));
          }),
        (i) =>
          timeMs(async () => {
            const t = performance.now();
            const read = okText(await b.call('read_text_file', { path: rFile }));
            refReadTimes.push(performance.now() - t);
            if (!read.includes(refBody)) throw new Error('the reference read does not hold the function');
            const next = fnLines(TARGET, `r${i} `).join('\n');
            okText(await b.call('edit_file', { path: rFile, edits: [{ oldText: refBody, newText: next }] }));
            refBody = next;
          }),
        async () => {
          const r0 = await replay!.callMs(0);
          floorRead.push(r0);
          return r0 + (await replay!.callMs(1)) + replaceFloorMs(fFile, bytes) + commits.commitMs(bytes);
        },
        3,
      );
      const after = readFileSync(path.join(root, 'h.ts'), 'utf8').split('\n').slice(start - 1, end).join('\n');
      const refAfter = readFileSync(rFile, 'utf8');
      const n = s.a.length;
      // the parser's own cost for a text it has not seen: one napi parse of the file as last written, alone
      const napi = createRequire(import.meta.url)('@ast-grep/napi') as { parse(lang: string, text: string): { root(): unknown } };
      const lastText = readFileSync(path.join(root, 'h.ts'), 'utf8');
      const parseTimes: number[] = [];
      for (let i = 0; i < 7; i++) parseTimes.push(await timeMs(async () => napi.parse('TypeScript', `${lastText}${' '.repeat(i)}`).root()));
      const parseMs = median(parseTimes);
      const refRead = median(refReadTimes.slice(-n));
      const parseNote = `one napi parse of the file's new text alone (bench process, p50 of 7): ${parseMs.toFixed(1)} ms = ${(parseMs / refRead).toFixed(2)}x the reference's whole read (the parser has no incremental re-parse; hashline starts it when fs_edit replies)`;
      if (after !== fnLines(TARGET, `h${n + 2} `).join('\n') || !refAfter.includes(refBody)) throw new Error('a side did not leave the function it was asked to write');
      const rows = [
        finish({
          ...readRow,
          status: 'measured',
          hashline: median(readTimes.slice(-n)),
          anchor: refRead,
          floor: { name: "a bare SDK server replaying hashline's recorded symbol read (no work)", value: median(floorRead.slice(-n)) },
          note: `each read follows an edit of the same function (the file's text is new to the server); reply ${JSON.stringify(warm.r).length} bytes of JSON against the whole file's ${text.length * 2}+; ${parseNote}`,
        }),
        finish({
          ...pairRow,
          status: 'measured',
          hashline: median(s.a),
          anchor: median(s.b),
          samples: { hashline: s.a, anchor: s.b },
          floor: { name: `replaying the read's reply + ${EDIT_FLOOR}`, value: median(s.f), samples: s.f },
          note: `the floor is ${(median(s.f) / median(s.b)).toFixed(2)}x of the reference (which does not fsync); the read ${median(readTimes.slice(-n)).toFixed(2)} ms of hashline's pair (p50); ${parseNote}`,
        }),
      ];
      return rows;
    } catch (e) {
      return [failed(readRow, e), failed(pairRow, e)];
    } finally {
      commits.close();
      await replay?.close();
      await a.close();
      await b.close();
    }
  },
};
