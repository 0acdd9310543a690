// package.json names built files (`exports`, `main`, `types`, `bin`): each one must be what the
// build writes, and each `exports` entry must point at the module of `src/` that tsconfig.json maps
// its public name to. The installed tarball is checked by name in test-pack/.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/mcp-client.js';

interface Pkg {
  main: string;
  types: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, string>>;
}

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Pkg;

/** Every file a field of package.json names, with the field. */
function named(): Array<[string, string]> {
  const out: Array<[string, string]> = [['main', pkg.main], ['types', pkg.types], ...Object.entries(pkg.bin).map(([k, v]): [string, string] => [`bin.${k}`, v])];
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') out.push([`exports["${sub}"]`, target]);
    else for (const [cond, file] of Object.entries(target)) out.push([`exports["${sub}"].${cond}`, file]);
  }
  return out;
}

test('every file package.json names is written by the build', () => {
  assert.ok(existsSync(path.join(REPO, 'dist/index.js')), 'dist/ is missing: run `npm run build`');
  const missing = named().filter(([, file]) => !existsSync(path.join(REPO, file)));
  assert.deepEqual(missing, []);
});

test('each public subpath is built from the source tsconfig.json maps its name to', () => {
  const tsconfig = readFileSync(path.join(REPO, 'tsconfig.json'), 'utf8');
  const paths = JSON.parse(/"paths":\s*(\{[^}]*\})/.exec(tsconfig)![1]!) as Record<string, string[]>;
  for (const [sub, target] of Object.entries(pkg.exports)) {
    if (sub === './package.json') continue;
    const name = sub === '.' ? 'hashline' : `hashline/${sub.slice(2)}`;
    const source = paths[name]?.[0];
    assert.ok(source, `tsconfig.json maps ${name}`);
    const built = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js');
    const importTarget = typeof target === 'string' ? target : target.import;
    assert.equal(importTarget, built, `${name} resolves to the build of ${source}`);
    if (typeof target !== 'string') assert.equal(target.types, built.replace(/\.js$/, '.d.ts'), `${name} types`);
  }
});
