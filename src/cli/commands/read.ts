// `hashline read PATH [--lines A-B | --symbol NAME [--full]]`: fs_read for people and scripts. On a
// terminal the file's control characters are shown escaped; piped, its bytes pass as they are.

import { fsReadTool } from '../../tools/hashline/fs-read.js';
import { usageError } from '../options.js';
import { EXIT_OK, EXIT_REFUSED, json, oneShot, openLocal, out, shown, styleRead, warn } from './local-engine.js';

export async function readCommand(argv: string[]): Promise<void> {
  const { engine, values, positionals } = await openLocal('read', argv, { lines: { type: 'string' }, symbol: { type: 'string' }, full: { type: 'boolean' } });
  if (positionals.length !== 1) throw usageError('read', 'give exactly one PATH');
  if (values.lines !== undefined && values.symbol !== undefined) throw usageError('read', '--lines and --symbol exclude each other');
  if (values.full === true && values.symbol === undefined) throw usageError('read', '--full goes with --symbol (a whole file or a range is never elided)');
  const target = {
    path: positionals[0]!,
    ...(values.lines === undefined ? {} : { line_range: values.lines as string }),
    ...(values.symbol === undefined ? {} : { symbol: values.symbol as string }),
    ...(values.full === true ? { full: true } : {}),
  };
  const { structured } = await fsReadTool.run(engine, { targets: [target] }, oneShot());
  const results = structured.results ?? [];
  const refused = results.every((r) => r.content === '');
  if (values.json) json(structured);
  else
    for (const r of results) {
      if (r.content !== '') out(styleRead(shown(r.content)));
      if (r.warnings) warn(r.warnings);
    }
  process.exitCode = refused ? EXIT_REFUSED : EXIT_OK;
}
