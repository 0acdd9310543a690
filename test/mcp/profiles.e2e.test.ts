// `--tools hashline | navigation | boundary | all` (and `tools` in the configuration file) list
// only that profile's tools, and the server's instructions name no tool that is not listed.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { NAVIGATION_TOOLS } from '../../src/tools/tool-select.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { connectMcp } from '../helpers/mcp-client.js';

let root: string;
before(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hashline-profiles-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

const FS = ALL_TOOLS.filter((t) => t.name.startsWith('fs_')).map((t) => t.name);
const FILE = ALL_TOOLS.filter((t) => t.name.startsWith('file_')).map((t) => t.name);

const EXPECTED: Record<string, readonly string[]> = {
  all: ALL_TOOLS.map((t) => t.name),
  hashline: FS,
  navigation: NAVIGATION_TOOLS,
  boundary: FILE,
};

/** The tool names an instruction text mentions (`file_*` stands for a file_ tool, `fs_*` for an fs_ tool). */
function mentioned(text: string): string[] {
  return [...text.matchAll(/\b(?:fs|file)_(?:[a-z_]+|\*)/g)].map((m) => m[0]);
}

async function listing(args: string[]): Promise<{ names: string[]; instructions: string }> {
  const s = await connectMcp(['--root', root, '--history', 'off', ...args]);
  try {
    return { names: (await s.client.listTools()).tools.map((t) => t.name), instructions: s.client.getInstructions() ?? '' };
  } finally {
    await s.close();
  }
}

for (const [profile, expected] of Object.entries(EXPECTED)) {
  test(`--tools ${profile}: its tools only, and instructions that name only those`, async () => {
    const { names, instructions } = await listing(['--tools', profile]);
    assert.deepEqual(new Set(names), new Set(expected));
    for (const m of mentioned(instructions)) {
      if (m.endsWith('_*')) assert.ok(names.some((n) => n.startsWith(m.slice(0, -1))), `${profile}: ${m} without such a tool`);
      else assert.ok(names.includes(m), `${profile}: the instructions name ${m}, which is not listed`);
    }
    assert.match(instructions, /project root/);
  });
}

test('tools = "navigation" in the configuration file lists the navigation tools', async () => {
  const config = path.join(root, 'hashline.toml');
  writeFileSync(config, 'tools = "navigation"\n');
  try {
    const { names } = await listing(['--config', config]);
    assert.deepEqual(new Set(names), new Set(NAVIGATION_TOOLS));
  } finally {
    rmSync(config);
  }
});
