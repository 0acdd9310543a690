// `hashline edit PATH --tag TAG (--ops FILE | -)`: fs_edit for people and scripts. The ops are the
// fs_edit DSL; the tag is the one `hashline read` (or `hashline hash`) showed.

import { readFileSync } from 'node:fs';
import { fsEditTool } from '../../tools/hashline/fs-edit.js';
import { usageError } from '../options.js';
import { EXIT_OK, EXIT_REFUSED, json, oneShot, openLocal, out, shown, style, styleDiff, warn } from './local-engine.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function editCommand(argv: string[]): Promise<void> {
  const { engine, values, positionals } = await openLocal('edit', argv, { tag: { type: 'string' }, ops: { type: 'string' } });
  if (positionals.length !== 1) throw usageError('edit', 'give exactly one PATH');
  const tag = values.tag as string | undefined;
  const opsFrom = values.ops as string | undefined;
  if (tag === undefined) throw usageError('edit', '--tag TAG is required (the 4-hex tag `hashline read` shows)');
  if (opsFrom === undefined) throw usageError('edit', '--ops FILE (or --ops - for stdin) is required');
  let ops: string;
  try {
    ops = opsFrom === '-' ? await readStdin() : readFileSync(opsFrom, 'utf8');
  } catch (e) {
    throw usageError('edit', `cannot read --ops ${opsFrom}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const result = await fsEditTool.run(engine, { targets: [{ path: positionals[0]!, file_hash: tag, ops }] }, oneShot());
  if (values.json) json(result.structured);
  else if (result.isError) warn(result.text);
  else
    for (const r of result.structured.results ?? []) {
      out(style.header(shown(r.header)));
      for (const w of r.warnings) warn(w);
      if (r.diff !== undefined) out(styleDiff(shown(r.diff.replace(/\n$/, ''))));
    }
  process.exitCode = result.isError ? EXIT_REFUSED : EXIT_OK;
}
