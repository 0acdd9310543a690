// The layers, as docs/ARCHITECTURE.md's map states them: core computes (no disk, network, processes,
// adapters); io performs; adapters sit on top; and no import circle anywhere. The map is the rule:
// this test reads it, so the document and the check cannot drift apart.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/mcp-client.js';
import { circles, filesUnder, importGraph, importsOf } from './import-graph.js';

const SRC = path.join(REPO, 'src');
/** The first folder under src/ (or the file's own name for files at src/'s root). */
const layerOf = (abs: string) => path.relative(SRC, abs).split(path.sep)[0]!;

const FORBIDDEN_IN_CORE = [/^(node:)?fs(\/promises)?$/, /^(node:)?net$/, /^(node:)?http2?$/, /^(node:)?https$/, /^(node:)?child_process$/, /^(node:)?worker_threads$/, /^@modelcontextprotocol\//, /^fastify/, /^@ast-grep\//, /^tar$/];

/** The map's rows: folder (relative to the repo, with a trailing slash) → the layers it may import. */
export function readMap(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const at = markdown.indexOf('## The map');
  assert.ok(at >= 0, 'docs/ARCHITECTURE.md has no "## The map" section');
  for (const line of markdown.slice(at).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const m = /^\| `(src\/[^`]*)` \|.*\| ([^|]+) \|$/.exec(line);
    if (!m) continue;
    const allowed = m[2]!.trim() === '—' ? [] : m[2]!.split(',').map((s) => s.trim());
    rows.set(m[1]!, allowed);
  }
  return rows;
}

function foldersUnder(dir: string): string[] {
  const out = [dir];
  for (const e of readdirSync(dir)) if (statSync(path.join(dir, e)).isDirectory()) out.push(...foldersUnder(path.join(dir, e)));
  return out;
}

/** Layering violations of `files` under `map`: each file obeys the row of its own folder. */
export function violations(files: string[], map: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const f of files) {
    const folder = `${path.relative(REPO, path.dirname(f))}/`;
    const allowed = map.get(folder);
    if (!allowed) {
      bad.push(`${path.relative(REPO, f)}: its folder ${folder} has no row in the map`);
      continue;
    }
    for (const spec of importsOf(f)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(f), spec);
      const layer = layerOf(target).replace(/\.js$/, '.ts');
      if (!allowed.includes(layer)) bad.push(`${path.relative(REPO, f)} imports ${spec} (${layer}), outside ${folder}'s row: ${allowed.join(', ') || 'nothing'}`);
    }
  }
  return bad;
}

const MAP = readMap(readFileSync(path.join(REPO, 'docs/ARCHITECTURE.md'), 'utf8'));
const SOURCES = filesUnder(SRC);

test('the map names every folder of src/, and only folders that exist', () => {
  const folders = foldersUnder(SRC).map((d) => `${path.relative(REPO, d)}/`);
  assert.deepEqual([...MAP.keys()].sort(), folders.sort());
});

test('src/core imports no node:fs, net, http, child_process, and no adapter or native package', () => {
  const bad: string[] = [];
  for (const f of filesUnder(path.join(SRC, 'core'))) {
    for (const spec of importsOf(f)) if (FORBIDDEN_IN_CORE.some((re) => re.test(spec))) bad.push(`${path.relative(REPO, f)} imports ${spec}`);
  }
  assert.deepEqual(bad, []);
});

test('every file imports only what its folder\'s row in the map allows', () => {
  assert.deepEqual(violations(SOURCES, MAP), []);
});

test('no import circle in src/, test/, bench/ or scripts/', () => {
  const files = ['src', 'test', 'test-stress', 'test-pack', 'bench', 'scripts', 'examples'].flatMap((d) => filesUnder(path.join(REPO, d)));
  const found = circles(importGraph(files)).map((c) => c.map((f) => path.relative(REPO, f)).join(' ↔ '));
  assert.deepEqual(found, []);
});

test('the checks see what they check (they cannot pass vacuously)', () => {
  // the import reader sees both kinds of specifier
  const seen = importsOf(path.join(SRC, 'io/guard/path-guard.ts'));
  assert.ok(seen.includes('node:fs'));
  assert.ok(seen.some((s) => s.startsWith('../../core/')));
  // the map has rows, and a file of core importing io is a violation of it
  assert.ok(MAP.size >= 30, `the map has ${MAP.size} rows`);
  const core = path.join(SRC, 'core/text/tag.ts');
  const upward = violations([core], new Map([...MAP, ['src/core/text/', []]]));
  assert.ok(upward.length > 0, 'a row that allows nothing must flag tag.ts\'s imports');
  // a two-file circle is found
  const a = path.join(SRC, 'a.ts');
  const b = path.join(SRC, 'b.ts');
  assert.deepEqual(circles(new Map([[a, [b]], [b, [a]]])), [[a, b]]);
  assert.deepEqual(circles(new Map([[a, [b]], [b, []]])), []);
});

test('index.ts lists its exports by name (no export *)', () => {
  const src = readFileSync(path.join(SRC, 'index.ts'), 'utf8');
  assert.doesNotMatch(src, /export\s+\*/);
});
