// file_patch over MCP stdio: one aider block (a changed line in the middle) on a 2,000-line file,
// against the reference server's `edit_file` making the same change (p50, A B A B). Both sides are
// driven by the official SDK client; hashline writes atomically (its default durability) and checks
// the candidate still parses (TypeScript); the reference does neither.
// Floor, run after each pair: a bare server replaying hashline's recorded reply, one parse of the
// text with ast-grep's napi module, one atomic replace and one history commit of the same bytes.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { linesText, textLine } from '../lib/fixtures.js';
import { replaceFloorMs, HistoryCommitFloor, startReplay, type Replay } from '../lib/floors.js';
import { connectHashline, connectReference, envelopeData, okText } from '../lib/mcp.js';
import { alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const LINE = 1000;


export const patch: Workload = {
  id: 'patch',
  async run(ctx) {
    const row: Omit<Row, 'status'> = {
      id: 'patch-1-block',
      title: 'one aider block on a 2,000-line file (file_patch), p50',
      issue: 16,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'edit_file (reference MCP server)',
      goal: { kind: 'ratio', bound: 'max', value: 0.6, text: '≤ 0.6×' },
    };
    if (!ctx.tools.has('file_patch')) return [notBuilt(row, 'file_patch')];
    const ref = ctx.anchors.referenceServer;
    if (!ref) return [{ ...row, status: 'anchor missing' }];
    const root = path.join(ctx.opts.work, 'patch');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'h.ts'), linesText(2000));
    writeFileSync(path.join(root, 'h.txt'), linesText(2000));
    const bFile = path.join(root, 'r.ts');
    writeFileSync(bFile, linesText(2000));
    const fFile = path.join(root, 'f.ts');
    writeFileSync(fFile, linesText(2000));
    const fBytes = readFileSync(fFile);
    const napi = createRequire(import.meta.url)('@ast-grep/napi') as { parse(lang: string, text: string): { root(): unknown } };
    const a = await connectHashline(ctx.opts.repo, root);
    const b = await connectReference(ref, root);
    const commits = new HistoryCommitFloor(ctx.opts.work);
    let replay: Replay | undefined;
    try {
      let sha = envelopeData<{ files: Array<{ sha256: string }> }>(await a.call('file_hash', { filePaths: ['h.ts'] })).files[0]!.sha256;
      let hPrev = textLine(LINE);
      let rPrev = textLine(LINE);
      // the floor's reply: one patch's recorded reply, of the same shape and size as the timed ones
      const first = await a.call('file_patch', { files: { 'h.ts': { patchStrategy: 'aider_block', expectedSha256: sha, aiderBlocks: [{ search: `${hPrev}\n`, replace: `${textLine(LINE, 'h0 ')}\n` }] } } });
      sha = envelopeData<{ files: Array<{ sha256: string }> }>(first).files[0]!.sha256;
      hPrev = textLine(LINE, 'h0 ');
      replay = await startReplay(ctx.opts.repo, ctx.opts.work, 'patch', [first]);
      const fText = fBytes.toString('utf8');
      const s = await alternateWithFloor(
        ctx.opts.reps * 5,
        (i) =>
          timeMs(async () => {
            const next = textLine(LINE, `h${i + 1} `);
            const data = envelopeData<{ files: Array<{ sha256: string; matchMethods: string[] }> }>(
              await a.call('file_patch', { files: { 'h.ts': { patchStrategy: 'aider_block', expectedSha256: sha, aiderBlocks: [{ search: `${hPrev}\n`, replace: `${next}\n` }] } } }),
            );
            if (data.files[0]!.matchMethods[0] !== 'exact') throw new Error(`placed by ${data.files[0]!.matchMethods[0]}`);
            sha = data.files[0]!.sha256;
            hPrev = next;
          }),
        (i) =>
          timeMs(async () => {
            const next = textLine(LINE, `r${i} `);
            okText(await b.call('edit_file', { path: bFile, edits: [{ oldText: rPrev, newText: next }] }));
            rPrev = next;
          }),
        async () => (await replay!.callMs()) + (await timeMs(async () => napi.parse('TypeScript', fText).root())) + replaceFloorMs(fFile, fBytes) + commits.commitMs(fBytes),
        3,
      );
      // where the time goes: the same patch on the same text in a file without a grammar (no parse check)
      let tSha = envelopeData<{ files: Array<{ sha256: string }> }>(await a.call('file_hash', { filePaths: ['h.txt'] })).files[0]!.sha256;
      let tPrev = textLine(LINE);
      const plain: number[] = [];
      for (let i = 0; i < ctx.opts.reps * 5; i++) {
        const next = textLine(LINE, `t${i} `);
        plain.push(
          await timeMs(async () => {
            tSha = envelopeData<{ files: Array<{ sha256: string }> }>(
              await a.call('file_patch', { files: { 'h.txt': { patchStrategy: 'aider_block', expectedSha256: tSha, aiderBlocks: [{ search: `${tPrev}\n`, replace: `${next}\n` }] } } }),
            ).files[0]!.sha256;
          }),
        );
        tPrev = next;
      }
      const note = `the same block on the same text as .txt (no grammar, so no parse check): ${median(plain).toFixed(2)} ms, ${(median(plain) / median(s.b)).toFixed(2)}x of the reference`;
      const floor = { name: 'a bare server replaying the reply + one napi parse of the text + one atomic replace + one history commit of it', value: median(s.f), samples: s.f };
      return [finish({ ...row, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b }, floor, note, extra: { plainTextMs: median(plain) } })];
    } catch (e) {
      return [failed(row, e)];
    } finally {
      commits.close();
      await replay?.close();
      await a.close();
      await b.close();
    }
  },
};
