// A 50 MB file read by line range: the right lines, the whole-file tag, and memory that stays
// small (measured as the peak resident size of a child process doing only that read).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { REPO } from '../../helpers/mcp-client.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('a 50 MB file read by range keeps memory small', async () => {
  const sb = await makeSandbox();
  try {
    const line = (n: number) => `line ${String(n).padStart(8, '0')} ${'x'.repeat(36)}\n`; // 51 bytes
    const count = Math.ceil((50 * 1024 * 1024) / 51);
    const parts: string[] = [];
    for (let i = 1; i <= count; i++) parts.push(line(i));
    const text = parts.join('');
    await fsp.writeFile(path.join(sb.root, 'huge.txt'), text);
    const script = path.join(REPO, 'test/fixtures/scripts/read-huge.ts');
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, sb.root, 'huge.txt', '1000000-1000002'], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 20 });
    const { peakGrowth, result } = JSON.parse(out) as { peakGrowth: number; result: { file_hash: string; content: string } };
    assert.equal(result.file_hash, computeTag(text));
    const body = result.content.split('\n');
    assert.deepEqual(body.slice(1, 4), [`1000000| ${line(1000000).trimEnd()}`, `1000001| ${line(1000001).trimEnd()}`, `1000002| ${line(1000002).trimEnd()}`]);
    assert.equal(body[4], `[${count - 1000002} more lines in file; continue with line_range "1000003-${count}"]`);
    assert.ok(peakGrowth < 30 * 1024 * 1024, `peak growth ${(peakGrowth / 1e6).toFixed(1)} MB`);
  } finally {
    await sb.cleanup();
  }
});
