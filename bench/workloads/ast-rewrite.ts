// A structural rewrite over a 2,000-file tree: hashline `fs_ast_edit` (atomic, durable writes)
// against `ast-grep run -p PAT -r OUT -U` on a fresh copy of the same tree, and a check that
// both leave identical bytes.

import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REWRITE, sourceTree } from '../lib/fixtures.js';
import { connectHashline, okText } from '../lib/mcp.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';

const run = promisify(execFile);

async function files(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await files(dir, r)));
    else if (e.isFile() && !e.name.startsWith('.complete')) out.push(r);
  }
  return out.sort();
}

/** Files whose bytes differ between two trees (by relative path). */
async function differing(a: string, b: string): Promise<string[]> {
  const fa = await files(a);
  const fb = new Set(await files(b));
  const out: string[] = [];
  for (const f of fa) {
    if (!fb.delete(f)) out.push(f);
    else if (!(await fsp.readFile(path.join(a, f))).equals(await fsp.readFile(path.join(b, f)))) out.push(f);
  }
  return [...out, ...fb];
}

async function fresh(template: string, dest: string): Promise<void> {
  await fsp.rm(dest, { recursive: true, force: true });
  await run('cp', ['-r', template, dest]);
}

export const astRewrite: Workload = {
  id: 'ast-rewrite',
  async run(ctx) {
    const n = ctx.opts.quick ? 200 : 2000;
    const base: Omit<Row, 'status'> = {
      id: 'ast-rewrite',
      title: `rewrite over ${n} files (fs_ast_edit)`,
      issue: 5,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'ast-grep run -p PAT -r OUT -U',
      goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5×' },
    };
    if (!ctx.tools.has('fs_ast_edit')) return [notBuilt(base, 'fs_ast_edit')];
    const astGrep = ctx.anchors.astGrep;
    if (!astGrep) return [{ ...base, status: 'anchor missing' }];
    const template = sourceTree(ctx.opts.work, n);
    const root = path.join(ctx.opts.work, 'rewrite');
    await fsp.mkdir(root, { recursive: true });
    const h = path.join(root, 'h');
    const a = path.join(root, 'a');
    const side = await connectHashline(ctx.opts.repo, root);
    let diff: string[] = [];
    let changed = 0;
    try {
      const s = await alternate(
        ctx.opts.heavyReps,
        async () => {
          await fresh(template, h);
          return timeMs(async () => okText(await side.call('fs_ast_edit', { ops: [REWRITE], paths: ['h'], max_files: n + 100 })));
        },
        async (i) => {
          await fresh(template, a);
          const ms = await timeMs(() => run(astGrep, ['run', '-p', REWRITE.pat, '-r', REWRITE.out, '-l', 'ts', '-U', 'a'], { cwd: root, maxBuffer: 64 << 20 }));
          if (i === 0) {
            diff = await differing(h, a);
            changed = (await differing(template, a)).length;
          }
          return ms;
        },
      );
      const row = finish({ ...base, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } });
      row.extra = { identicalBytes: diff.length === 0, differingFiles: diff.slice(0, 20), filesChanged: changed };
      if (diff.length > 0) {
        row.met = false;
        row.note = `${diff.length} files differ from ast-grep's result (e.g. ${diff[0]})`;
      } else row.note = `identical bytes; ${changed} of ${n} files changed by both`;
      return [row];
    } catch (e) {
      return [failed(base, e)];
    } finally {
      await side.close();
    }
  },
};
