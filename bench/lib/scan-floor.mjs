// Floors of looking a name up across a tree.
// - Cold (`coldLookupMs`): a fresh Node process lists the tree, reads every file, and parses the
//   files that hold the name with ast-grep's napi module (its load included) to find the
//   definition; the figure is the process's own time from before that load to the answer (the
//   spawn is left out, as the first call to a running server leaves it out).
// - Warm (`warmScanner`): the files' texts held in memory; a pass lstats every file (the check a
//   warm cache needs to trust what it holds) and searches each text, by indexOf or by a RegExp.
// Run alone: node bench/lib/scan-floor.mjs DIR NAME   (prints the cold figure)

import { execFile } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** ms a fresh process takes to find the definition of `name` under `dir` (spawn not counted). */
export async function coldLookupMs(dir, name) {
  const { stdout } = await run(process.execPath, [fileURLToPath(import.meta.url), dir, name], { maxBuffer: 1 << 20 });
  const r = JSON.parse(stdout);
  if (r.found < 1) throw new Error(`the scan floor found no definition of ${name}`);
  return r.ms;
}

/** Holds the texts of every file under `dir`; `passMs(test)` times one warm pass. */
export function warmScanner(dir) {
  const files = listFiles(dir);
  const texts = files.map((f) => readFileSync(f, 'latin1'));
  return {
    files: files.length,
    passMs(test) {
      const t = performance.now();
      let hits = 0;
      for (let i = 0; i < files.length; i++) {
        lstatSync(files[i]);
        if (test(texts[i])) hits++;
      }
      return { ms: performance.now() - t, hits };
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, name] = process.argv.slice(2);
  const t = performance.now();
  const { createRequire } = await import('node:module');
  const napi = createRequire(import.meta.url)('@ast-grep/napi');
  let found = 0;
  for (const f of listFiles(dir)) {
    const text = readFileSync(f, 'utf8');
    if (!text.includes(name)) continue;
    const root = napi.parse('TypeScript', text).root();
    found += root.findAll({ rule: { kind: 'function_declaration', has: { field: 'name', regex: `^${name}$` } } }).length;
  }
  process.stdout.write(JSON.stringify({ ms: performance.now() - t, found }));
}
