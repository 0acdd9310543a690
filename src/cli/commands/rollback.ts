// `hashline rollback PATH [--to TAG]`: fs_rollback for people and scripts, over the history kept
// across runs. Without --to, the version before the current one.

import { toHashlineError } from '../../core/errors/errors.js';
import { fsRollbackTool } from '../../tools/hashline/fs-rollback.js';
import { usageError } from '../options.js';
import { EXIT_OK, EXIT_REFUSED, json, oneShot, openLocal, out, shown, style, warn } from './local-engine.js';

export async function rollbackCommand(argv: string[]): Promise<void> {
  const { engine, values, positionals } = await openLocal('rollback', argv, { to: { type: 'string' } });
  if (positionals.length !== 1) throw usageError('rollback', 'give exactly one PATH');
  try {
    const to = values.to as string | undefined;
    const { structured } = await fsRollbackTool.run(engine, { path: positionals[0]!, ...(to === undefined ? {} : { hash: to }) }, oneShot());
    if (values.json) json(structured);
    else {
      out(style.header(shown(structured.header)));
      if (structured.warning) warn(structured.warning);
      out(`replaced ${structured.replaced_hash === '' ? '(no file)' : structured.replaced_hash}: undo with \`hashline rollback ${structured.path} --to ${structured.replaced_hash}\``);
    }
    process.exitCode = EXIT_OK;
  } catch (e) {
    const err = toHashlineError(e);
    if (values.json) json({ error: { code: err.code, message: err.message } });
    else warn(`[${err.code}] ${err.message}`);
    process.exitCode = EXIT_REFUSED;
  }
}
