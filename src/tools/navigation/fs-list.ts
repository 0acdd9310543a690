// fs_list: a compact tree of a directory, one line per entry (name, size, line count of small text
// files), to a depth, `.gitignore` and the default ignores honoured, links shown with where they
// lead and never followed, capped with a note saying where to continue. Nothing the read policy
// refuses is listed.

import { lstatSync } from 'node:fs';
import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { depthLimited, linkOutside, listCapped } from '../../core/messages/nav.js';
import { compileGlob } from '../../core/config/path-glob.js';
import { listEntries, type ListedEntry } from '../../io/tree/list-entries.js';
import { defineTool } from '../tool.js';

const DEFAULT_DEPTH = 2;
/** With a glob, the walk goes this deep unless `depth` says otherwise. */
const GLOB_DEPTH = 20;

const Input = z.strictObject({
  path: z.string().default('.').meta({ guide: 'directory (or file) to list, relative to the root' }),
  depth: z.number().int().min(1).max(64).optional().meta({ guide: 'levels to list (default 2; 20 with a glob)' }),
  glob: z.string().optional().meta({ guide: 'keep files whose path (relative to `path`) matches, e.g. "*.ts" or "src/**/*.test.ts"' }),
  include_ignored: z.boolean().default(false).meta({ guide: 'also list what .gitignore excludes (.git and node_modules stay hidden)' }),
  max_entries: z.number().int().min(1).max(5000).default(500).meta({ guide: 'entries shown at most' }),
});

const Entry = z.object({
  path: z.string(),
  name: z.string(),
  depth: z.number().int(),
  type: z.enum(['dir', 'file', 'link']),
  size: z.number().int().optional(),
  lines: z.number().int().optional(),
  binary: z.boolean().optional(),
  /** A file read for its line count: the SHA-256 of its bytes (the file_* tools' expectedSha256). */
  sha256: z.string().optional(),
  entries: z.number().int().optional(),
  target: z.string().optional(),
  target_type: z.enum(['dir', 'file', 'missing', 'other', 'outside']).optional(),
});

const Output = z.object({
  path: z.string().optional(),
  entries: z.array(Entry).optional(),
  total: z.number().int().optional(),
  capped: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
});

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

function line(e: ListedEntry): string {
  const indent = '  '.repeat(e.depth + 1);
  if (e.type === 'dir') return `${indent}${e.name}/${e.entries !== undefined ? `  ${depthLimited(e.entries)}` : ''}`;
  if (e.type === 'link') {
    if (e.target_type === 'outside') return `${indent}${e.name} ${linkOutside()}`;
    return `${indent}${e.name} -> ${e.target}${e.target_type === 'dir' ? '/' : e.target_type === 'missing' ? ' (missing)' : ''}`;
  }
  const facts = [formatSize(e.size ?? 0), ...(e.binary ? ['binary'] : e.lines !== undefined ? [`${e.lines} ${e.lines === 1 ? 'line' : 'lines'}`] : [])];
  return `${indent}${e.name}  ${facts.join(', ')}`;
}

/** Where to continue after the cap: the directory holding the first entry left out. */
function deeperPath(listed: string, first: ListedEntry): string | undefined {
  const parent = first.path.includes('/') ? first.path.slice(0, first.path.lastIndexOf('/')) : '.';
  if (parent !== listed && first.depth > 0) return parent;
  return first.type === 'dir' ? first.path : undefined;
}

export const fsListTool = defineTool({
  name: 'fs_list',
  family: 'hashline',
  title: 'List a directory tree',
  description: [
    'Lists a directory tree with sizes and line counts; .gitignore, .git, node_modules skipped; links not followed.',
    'Example: {"path":"src","depth":3,"glob":"*.ts"}',
    'After an error, list the parent, retry.',
  ].join('\n'),
  guide: [
    'Lists a directory as a compact tree: one line per entry, with size and line count for text files; `dir/` lines at the depth limit say how many entries they hold. .gitignore, .git and node_modules are skipped; links show where they lead and are never followed.',
    'Example: {"path": "src", "depth": 3, "glob": "*.ts"} → `src/` then `  app.ts  1.2 KB, 40 lines` ...',
    'When the listing is capped, a note names a deeper `path` to list next. After an error (missing path, refused path), check the path against a listing of its parent and retry.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const rp = await engine.guard.resolve(args.path, 'read');
    if (!rp.exists) throw new HashlineError('not_found', `\`${rp.display}\` does not exist`, { details: { path: rp.display } });
    const match = args.glob === undefined ? undefined : compileGlob(args.glob);
    const st = lstatSync(rp.real);
    let all: ListedEntry[];
    if (st.isDirectory()) {
      all = await listEntries(engine.guard, rp.real, {
        depth: args.depth ?? (match ? GLOB_DEPTH : DEFAULT_DEPTH),
        includeIgnored: args.include_ignored,
        match,
        signal: call.signal,
      });
    } else {
      all = [{ path: rp.display, name: rp.display.slice(rp.display.lastIndexOf('/') + 1), depth: 0, type: 'file', size: st.size }];
    }
    if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
    const capped = all.length > args.max_entries;
    const entries = capped ? all.slice(0, args.max_entries) : all;
    const notes = capped ? [listCapped(args.max_entries, all.length - entries.length, deeperPath(rp.display, all[entries.length]!))] : [];
    const head = rp.display === '.' ? './' : `${rp.display}${st.isDirectory() ? '/' : ''}`;
    const text = [head, ...entries.map(line), ...notes].join('\n');
    return { structured: { path: rp.display, entries, total: all.length, capped, ...(notes.length ? { notes } : {}) }, text };
  },
});
