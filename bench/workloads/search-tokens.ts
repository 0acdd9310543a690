// Tokens an agent spends on a find-and-edit task: find the call site of a function by its name,
// change the call. hashline: `fs_search` (the name, default context) then `fs_edit` of the hit line
// with the search's tag. What agents do with the reference server today: a grep tool whose output is
// `path:line:text` (as `rg -n` prints it), `read_text_file` of the file, then `edit_file`. Both
// sides run every task for real, on their own copy of a tree of 210-line TypeScript files, and the
// files must end up the same. Tokens: gpt-tokenizer's o200k encoding of each request (tool name
// and JSON arguments) and each reply (the text content the model reads). Floor: the least any tool
// makes an agent exchange for the task: the search request, the hit lines as `rg -n` prints them,
// and an edit request naming the path, the line and its new text (no reply counted).

import { execFile } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { sourceTree } from '../lib/fixtures.js';
import { connectHashline, connectReference, okText, type McpSide } from '../lib/mcp.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

/** Modules per file (about 35 lines each: files of about 210 lines) and the module a task edits. */
const PARTS = 6;
const PICK = 3;

const request = (tool: string, args: Record<string, unknown>) => countTokens(`${tool} ${JSON.stringify(args)}`);
const reply = (text: string) => countTokens(text);

interface Tally {
  tokens: number;
  calls: number;
  floor?: number;
}

function task(t: number): { file: string; name: string; before: string; after: string } {
  const m = t * PARTS + PICK;
  return {
    file: `pkg000/mod${t}.ts`,
    name: `compute${m}(`,
    before: `  logger.info(compute${m}(1, 2));`,
    after: `  logger.info(compute${m}(2, 3));`,
  };
}

async function hashlineTask(side: McpSide, t: number, context: number | undefined): Promise<Tally> {
  const k = task(t);
  const sArgs = { pattern: k.name, ...(context === undefined ? {} : { context }) };
  const found = await side.call('fs_search', sArgs);
  const text = okText(found);
  const hit = (found.structuredContent as { results: Array<{ path: string; file_hash: string; content: string }> }).results.find((r) => r.path === k.file);
  if (!hit) throw new Error(`fs_search found no hit in ${k.file}`);
  const line = /^(\d+)\| (.*)$/m.exec(hit.content.split('\n').filter((l) => l.endsWith(k.before.trim())).join('\n'));
  if (!line) throw new Error(`no call line in the hit window of ${k.file}`);
  const eArgs = { targets: [{ path: k.file, file_hash: hit.file_hash, ops: `replace ${line[1]}:\n+${k.after}` }] };
  const edited = okText(await side.call('fs_edit', eArgs));
  return { tokens: request('fs_search', sArgs) + reply(text) + request('fs_edit', eArgs) + reply(edited), calls: 2 };
}

async function referenceTask(side: McpSide, rg: string, root: string, t: number): Promise<Tally> {
  const k = task(t);
  const gArgs = { pattern: k.name.replace('(', '\\('), path: '.' };
  const grep = (await run(rg, ['-n', '--', gArgs.pattern, '.'], { cwd: root, maxBuffer: 64 << 20 })).stdout.replace(/^\.\//gm, '');
  if (!grep.includes(k.file)) throw new Error(`rg found no hit in ${k.file}`);
  const rArgs = { path: path.join(root, k.file) };
  const read = okText((await side.call('read_text_file', rArgs)) as CallToolResult);
  if (!read.includes(k.before)) throw new Error(`read_text_file of ${k.file} lacks the call`);
  const eArgs = { path: path.join(root, k.file), edits: [{ oldText: k.before, newText: k.after }] };
  const edited = okText(await side.call('edit_file', eArgs));
  const line = grep.split('\n').find((l) => l.startsWith(`${k.file}:`) && l.endsWith(k.before.trim()))?.split(':')[1];
  const floor = request('grep', gArgs) + reply(grep) + request('edit', { path: k.file, line: Number(line), text: k.after });
  return { tokens: request('grep', gArgs) + reply(grep) + request('read_text_file', rArgs) + reply(read) + request('edit_file', eArgs) + reply(edited), calls: 3, floor };
}

export const searchTokens: Workload = {
  id: 'search-tokens',
  async run(ctx) {
    const tasks = ctx.opts.quick ? 20 : 100;
    const row: Omit<Row, 'status'> = {
      id: 'find-edit-tokens',
      title: `tokens per find-and-edit task (fs_search + fs_edit), ${tasks} tasks, files of ~210 lines`,
      issue: 18,
      unit: 'tokens',
      direction: 'lower',
      anchorName: 'rg -n output + read_text_file + edit_file',
      goal: { kind: 'ratio', bound: 'max', value: 0.3, text: '≤ 0.3×' },
    };
    if (!ctx.tools.has('fs_search') || !ctx.tools.has('fs_edit')) return [notBuilt(row, 'fs_search')];
    const rg = ctx.anchors.rg;
    const ref = ctx.anchors.referenceServer;
    if (!rg || !ref) return [{ ...row, status: 'anchor missing', note: `${rg ? '' : 'rg not found (apt-get install -y ripgrep); '}${ref ? '' : 'reference server not installed'}` }];
    const template = sourceTree(ctx.opts.work, 100, PARTS);
    const hRoot = path.join(ctx.opts.work, 'tokens-hashline');
    const hRoot0 = path.join(ctx.opts.work, 'tokens-hashline-c0');
    const rRoot = path.join(ctx.opts.work, 'tokens-reference');
    for (const d of [hRoot, hRoot0, rRoot]) {
      rmSync(d, { recursive: true, force: true });
      cpSync(template, d, { recursive: true });
    }
    try {
      const h = await connectHashline(ctx.opts.repo, hRoot);
      const h0 = await connectHashline(ctx.opts.repo, hRoot0);
      const r = await connectReference(ref, rRoot);
      const sums = { h: 0, h0: 0, r: 0, f: 0 };
      const per: { h: number[]; r: number[] } = { h: [], r: [] };
      try {
        for (let t = 0; t < tasks; t++) {
          const a = await hashlineTask(h, t, undefined);
          const a0 = await hashlineTask(h0, t, 0);
          const b = await referenceTask(r, rg, rRoot, t);
          sums.h += a.tokens;
          sums.h0 += a0.tokens;
          sums.r += b.tokens;
          sums.f += b.floor!;
          per.h.push(a.tokens);
          per.r.push(b.tokens);
        }
      } finally {
        await Promise.all([h.close(), h0.close(), r.close()]);
      }
      for (let t = 0; t < tasks; t++) {
        const f = task(t).file;
        const want = readFileSync(path.join(rRoot, f), 'utf8');
        if (readFileSync(path.join(hRoot, f), 'utf8') !== want || readFileSync(path.join(hRoot0, f), 'utf8') !== want) throw new Error(`the two sides left ${f} different`);
      }
      const out = finish({
        ...row,
        status: 'measured',
        hashline: sums.h / tasks,
        anchor: sums.r / tasks,
        samples: { hashline: per.h, anchor: per.r },
        floor: { name: 'the search request, the hit lines as `rg -n` prints them, and an edit request naming path, line and new text', value: sums.f / tasks },
      });
      out.note = `mean tokens per task (o200k, requests and replies): hashline ${(sums.h / tasks).toFixed(0)} (2 calls, context 2), ${(sums.h0 / tasks).toFixed(0)} with context 0 (${(sums.h0 / sums.r).toFixed(2)}x); reference ${(sums.r / tasks).toFixed(0)} (3 calls); all ${tasks} files identical on both sides afterwards`;
      out.extra = { tasks, meanContext0: sums.h0 / tasks };
      return [out];
    } catch (e) {
      return [failed(row, e)];
    } finally {
      for (const d of [hRoot, hRoot0, rRoot]) rmSync(d, { recursive: true, force: true });
    }
  },
};
