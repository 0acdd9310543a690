// The verified cache of whole reads (io/read/whole-read-cache.ts) and the memo of the whole renderer:
// over random files (CRLF, lone CR, BOM, no final newline, long lines, invalid UTF-8, characters
// JSON escapes) and reply budgets that cap the read or not, a read through the cache, the first
// time and again, gives exactly what the streaming loader and the renderer without a memo give,
// and what the text model says a whole read shows. A file changed under the same size and mtime
// is read anew.

import assert from 'node:assert/strict';
import { promises as fsp, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { assembleContent, renderWhole, type Rendered } from '../../../src/core/read/read-render.js';
import { ReplyBudget } from '../../../src/core/read/reply-budget.js';
import { formatHeader } from '../../../src/core/text/tag.js';
import { displayText } from '../../../src/core/text/text-codec.js';
import { parseDocAndText } from '../../../src/core/text/text-doc.js';
import { loadLines } from '../../../src/io/read/read-lines.js';
import { clearWholeReadCache, loadWholeLines } from '../../../src/io/read/whole-read-cache.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const enc = (s: string) => Buffer.from(s, 'utf8');
const piece = fc.oneof(
  fc.constantFrom('a', 'x = 1;', ' ', '\t', '"q"', '\\', 'é', '😀', '\u0001', '\u2028', '¶', '| '),
  fc.constantFrom('\n', '\r\n', '\r', '\n\n'),
  fc.integer({ min: 190, max: 420 }).map((n) => 'L'.repeat(n)),
);
const fileBytes = fc
  .record({
    bom: fc.boolean(),
    parts: fc.array(fc.oneof({ weight: 6, arbitrary: piece.map(enc) }, { weight: 1, arbitrary: fc.constantFrom(Buffer.of(0xff), Buffer.of(0xc3), Buffer.of(0xed, 0xa0, 0x80)) }), { maxLength: 80 }),
  })
  .map(({ bom, parts }) => Buffer.concat([bom ? Buffer.of(0xef, 0xbb, 0xbf) : Buffer.alloc(0), ...parts]));
/** A budget: its limit, and how much an earlier target of the batch took. */
const budgetSpec = fc.record({ limit: fc.constantFrom(60, 300, 2_000, 20_000, 4 * 1024 * 1024), spent: fc.constantFrom(0, 0, 40, 1_000) });

function budgetOf(b: { limit: number; spent: number }): ReplyBudget {
  const budget = new ReplyBudget(b.limit);
  budget.takeBytes(Math.min(b.spent, b.limit));
  return budget;
}

interface Reading {
  content: string;
  r: Pick<Rendered, 'seen' | 'notices' | 'warnings'>;
  left: number;
  scan: { tag: string; utf8: boolean; total: number; trailingEmpty: boolean; text: string | undefined; bom: boolean; eol: string };
}

function reading(header: (tag: string) => string, loaded: Awaited<ReturnType<typeof loadLines>>, r: Rendered, budget: ReplyBudget): Reading {
  const { tag, utf8, total, trailingEmpty, text, bom, eol } = loaded;
  return { content: assembleContent(header(tag), r), r: { seen: [...r.seen], notices: r.notices, warnings: r.warnings }, left: budget.remaining, scan: { tag, utf8, total, trailingEmpty, text, bom, eol } };
}

test('a read through the cache, first and again, equals the streaming loader and the renderer without a memo', async () => {
  const sb = await makeSandbox();
  try {
    const engine = await engineFor(sb.root);
    const rp = await engine.guard.resolve('f.txt', 'write');
    const header = (tag: string) => formatHeader('f.txt', tag);
    let hits = 0;
    await fc.assert(
      fc.asyncProperty(fileBytes, budgetSpec, fc.constantFrom(0, 64, 1 << 20), async (bytes, b, keepTextUpTo) => {
        await fsp.writeFile(rp.real, bytes);
        const before = budgetOf(b);
        const old = await loadLines(engine.guard, rp, { allowance: before.remaining, keepTextUpTo });
        const want = reading(header, old, renderWhole(old, old.trailingEmpty, before), before);
        let first: unknown;
        for (let round = 0; round < 2; round++) {
          const budget = budgetOf(b);
          const loaded = await loadWholeLines(engine.guard, rp, { allowance: budget.remaining, keepTextUpTo });
          if (round === 0) first = loaded;
          else if (loaded === first) hits++;
          const got = reading(header, loaded, renderWhole(loaded, loaded.trailingEmpty, budget, loaded.memo), budget);
          assert.deepEqual(got, want);
        }
        if (b.limit === 4 * 1024 * 1024) {
          // room for all of it: every line of the text model, numbered, escaped bytes shown as U+FFFD
          const { doc } = parseDocAndText(bytes);
          const shown = [...doc.lines, ...(want.scan.trailingEmpty ? [''] : [])].map((l, i) => `${i + 1}| ${displayText(l)}`);
          assert.equal(want.content, `${header(want.scan.tag)}\n${shown.join('\n')}`);
        }
      }),
      { numRuns: 250 },
    );
    // the second read of the same bytes used the kept lines (the file is rewritten each run, often within one mtime tick)
    assert.ok(hits > 200, `cache hits: ${hits}`);
  } finally {
    clearWholeReadCache();
    await sb.cleanup();
  }
});

test('bytes changed under the same size and mtime are read anew; unchanged bytes reuse the kept lines', async () => {
  const sb = await makeSandbox({ 'a.ts': 'const a = 1;\nconst b = 2;\n' });
  try {
    const engine = await engineFor(sb.root);
    const rp = await engine.guard.resolve('a.ts', 'read');
    const budget = () => new ReplyBudget();
    utimesSync(rp.real, 1_000_000, 1_000_000);
    const first = await loadWholeLines(engine.guard, rp, { allowance: budget().remaining });
    const again = await loadWholeLines(engine.guard, rp, { allowance: budget().remaining });
    assert.equal(again, first, 'unchanged bytes: the kept lines');
    const st = statSync(rp.real);
    writeFileSync(rp.real, 'const a = 7;\nconst b = 2;\n');
    utimesSync(rp.real, 1_000_000, 1_000_000);
    assert.equal(statSync(rp.real).size, st.size);
    assert.equal(statSync(rp.real).mtimeMs, 1_000_000_000);
    const changed = await loadWholeLines(engine.guard, rp, { allowance: budget().remaining });
    assert.notEqual(changed, first);
    assert.equal(changed.line(1), 'const a = 7;');
    const r = renderWhole(changed, changed.trailingEmpty, budget(), changed.memo);
    assert.equal(assembleContent('H', r), 'H\n1| const a = 7;\n2| const b = 2;\n3| ');
  } finally {
    clearWholeReadCache();
    await sb.cleanup();
  }
});

test('the kept bytes are handed on as the text\'s UTF-8 only when they are exactly that (no BOM, no CR, valid UTF-8)', async () => {
  const sb = await makeSandbox({ 'plain.ts': 'const é = 1;\n', 'crlf.ts': 'a\r\nb\r\n', 'bom.ts': '\ufeffa\n', 'bad.txt': Buffer.from([0x61, 0xff, 0x0a]) });
  try {
    const engine = await engineFor(sb.root);
    const load = async (p: string) => loadWholeLines(engine.guard, await engine.guard.resolve(p, 'read'), { keepTextUpTo: 1 << 20 });
    const plain = await load('plain.ts');
    assert.ok(plain.textBytes !== undefined && Buffer.from(plain.text!).equals(plain.textBytes));
    for (const p of ['crlf.ts', 'bom.ts', 'bad.txt']) assert.equal((await load(p)).textBytes, undefined, p);
    // without the text kept, no bytes either
    const none = await loadWholeLines(engine.guard, await engine.guard.resolve('plain.ts', 'read'), { keepTextUpTo: 0 });
    assert.equal(none.textBytes, undefined);
  } finally {
    clearWholeReadCache();
    await sb.cleanup();
  }
});

test('files over the synchronous read size are streamed, not kept', async () => {
  const line = `${'y'.repeat(99)}\n`;
  const sb = await makeSandbox({ 'big.txt': line.repeat(3000) });
  try {
    const engine = await engineFor(sb.root);
    const rp = await engine.guard.resolve('big.txt', 'read');
    const a = await loadWholeLines(engine.guard, rp, { allowance: 1 << 30 });
    const b = await loadWholeLines(engine.guard, rp, { allowance: 1 << 30 });
    assert.notEqual(a, b);
    assert.equal(a.memo, undefined);
    assert.equal(b.total, 3000);
    assert.equal(b.line(3000), line.slice(0, -1));
    assert.equal(path.basename(rp.real), 'big.txt');
  } finally {
    await sb.cleanup();
  }
});
