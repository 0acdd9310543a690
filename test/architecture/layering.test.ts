// The layers: core computes (no disk, network, processes, adapters); io performs; adapters sit on top.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/mcp-client.js';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (let m = re.exec(src); m; m = re.exec(src)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

const SRC = path.join(REPO, 'src');
const layerOf = (abs: string) => path.relative(SRC, abs).split(path.sep)[0]!;

const FORBIDDEN_IN_CORE = [/^(node:)?fs(\/promises)?$/, /^(node:)?net$/, /^(node:)?http2?$/, /^(node:)?https$/, /^(node:)?child_process$/, /^(node:)?worker_threads$/, /^@modelcontextprotocol\//, /^fastify/, /^@ast-grep\//, /^tar$/];

/** Which layers each layer may import (by first folder under src/). */
const ALLOWED: Record<string, string[]> = {
  core: ['core'],
  io: ['core', 'io'],
  lang: ['core', 'io', 'lang'],
  tools: ['core', 'io', 'lang', 'tools', 'version.js'],
  mcp: ['core', 'io', 'lang', 'tools', 'mcp', 'version.js'],
  http: ['core', 'io', 'lang', 'tools', 'mcp', 'http', 'version.js'],
  cli: ['core', 'io', 'lang', 'tools', 'mcp', 'http', 'cli', 'version.js'],
  api: ['core', 'io', 'lang', 'tools', 'mcp', 'api', 'version.js'],
  ai: ['core', 'tools', 'api', 'ai'],
};

test('src/core imports no node:fs, net, http, child_process, and no adapter or native package', () => {
  const bad: string[] = [];
  for (const f of filesUnder(path.join(SRC, 'core'))) {
    for (const spec of importsOf(f)) if (FORBIDDEN_IN_CORE.some((re) => re.test(spec))) bad.push(`${path.relative(REPO, f)} imports ${spec}`);
  }
  assert.deepEqual(bad, []);
});

test('no layer imports a layer above it', () => {
  const bad: string[] = [];
  for (const [layer, allowed] of Object.entries(ALLOWED)) {
    let files: string[];
    try {
      files = filesUnder(path.join(SRC, layer));
    } catch {
      continue;
    }
    for (const f of files) {
      for (const spec of importsOf(f)) {
        if (!spec.startsWith('.')) continue;
        const target = layerOf(path.resolve(path.dirname(f), spec));
        if (!allowed.includes(target)) bad.push(`${path.relative(REPO, f)} (${layer}) imports ${spec} (${target})`);
      }
    }
  }
  assert.deepEqual(bad, []);
});

test('the check itself sees imports (it cannot pass vacuously)', () => {
  const seen = importsOf(path.join(SRC, 'io/path-guard.ts'));
  assert.ok(seen.includes('node:fs'));
  assert.ok(seen.some((s) => s.startsWith('../core/')));
});

test('index.ts lists its exports by name (no export *)', () => {
  const src = readFileSync(path.join(SRC, 'index.ts'), 'utf8');
  assert.doesNotMatch(src, /export\s+\*/);
});
