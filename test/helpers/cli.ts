// How the tests start the `hashline` CLI: the built bin (bin/hashline.mjs, what the package ships;
// it starts in about 0.15 s, the sources through tsx in 0.7-0.9 s) when it is newer than every
// file of src/, else the TypeScript sources through tsx, with a notice. scripts/test.mjs builds a
// stale bin before the run, so `npm test` always drives the product as built from the sources.

import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI_SOURCE = path.join(REPO, 'src/cli/main.ts');
export const CLI_BIN = path.join(REPO, 'bin/hashline.mjs');

function newestMtime(dir: string): number {
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return max;
}

/** Whether bin/hashline.mjs was built after the last change to src/. */
export function binFresh(): boolean {
  return existsSync(CLI_BIN) && statSync(CLI_BIN).mtimeMs >= newestMtime(path.join(REPO, 'src'));
}

let cached: string[] | undefined;

/** argv (after `node`) that runs `hashline`: the built bin when fresh, else the sources. */
export function cliArgs(): string[] {
  if (cached) return cached;
  if (binFresh()) return (cached = [CLI_BIN]);
  process.stdout.write('# bin/hashline.mjs is missing or older than src/: the CLI runs from the sources (slower; `npm run build`)\n');
  // tsx by its file URL: a bare `tsx` resolves from the child's working directory, often outside the checkout
  return (cached = ['--import', pathToFileURL(path.join(REPO, 'node_modules/tsx/dist/loader.mjs')).href, CLI_SOURCE]);
}
