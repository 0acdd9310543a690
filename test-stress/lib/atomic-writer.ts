// A child process for the kill -9 trials: replaces files under ROOT with writeAtomic under the path's
// lock, as every hashline write does (the io layer alone), forever, until killed. Prints "ready" once set up.
// Usage: node --import tsx test-stress/lib/atomic-writer.ts ROOT FILE... (versions come from `versionText`)

import { parseEngineArgs } from '../../src/cli/options.js';
import { writeAtomic } from '../../src/io/atomic-write.js';
import { createEngine } from '../../src/tools/engine.js';
import { versionText } from './versions.js';

const [root, ...files] = process.argv.slice(2);
if (!root || files.length === 0) throw new Error('usage: atomic-writer ROOT FILE...');
const { config } = parseEngineArgs(['--root', root, '--durability', process.env.STRESS_DURABILITY ?? 'atomic'], {});
const engine = await createEngine(config);
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const file = files[i % files.length]!;
  const rp = await engine.guard.resolve(file, 'write');
  await engine.locks.withLocks([rp.real], () => writeAtomic(engine.guard, rp, Buffer.from(versionText(file, i % 4))));
}
