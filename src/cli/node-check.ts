// Refuses an older Node.js before anything else loads: the CLI imports this module first, and the
// bundle in bin/ imports its own copy (hashline-node-check.mjs) ahead of every chunk, so the user
// reads which versions are supported instead of an error from deep inside a module.

import { nodeTooOld } from './node-support.js';

const refusal = nodeTooOld(process.versions.node);
if (refusal !== undefined) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}
