// rewriteTextInPool: the same outcome as rewriteText whether a worker thread or the calling thread
// does the work, coded errors kept across the thread boundary, workers stopped on request.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { isHashlineError } from '../../../src/core/errors/errors.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { lfText } from '../../../src/core/text/text-doc.js';
import { languageById, languageForPath, type LanguageInfo } from '../../../src/lang/grammar/registry.js';
import { rewriteText, type RewriteOp } from '../../../src/lang/rewrite/rewrite.js';
import { rewriteMessages, rewriteTextInPool, rewriteWorkers, stopRewritePool } from '../../../src/lang/rewrite/rewrite-pool.js';
import { skipOrFail } from '../../helpers/needs.js';

after(() => stopRewritePool());

const ts = languageById('TypeScript')!;
const ops: RewriteOp[] = [{ pat: 'console.log($A)', out: 'logger.info($A)' }];

const cases: Array<{ name: string; lang: LanguageInfo; raw: string; eol: string; ops: RewriteOp[] }> = [
  { name: 'LF text', lang: ts, raw: 'const a = 1;\nconsole.log(a);\nconsole.log(`x ${a}`);\n', eol: '\n', ops },
  { name: 'CRLF text, multi-line capture', lang: ts, raw: 'function f() {\r\n  console.log({\r\n    a: 1,\r\n  });\r\n}\r\n', eol: '\r\n', ops },
  { name: 'non-ASCII before the match', lang: ts, raw: 'const s = "Ωmega ✓";\nconsole.log(s);\n', eol: '\n', ops },
  { name: 'nested matches reported', lang: ts, raw: 'console.log(console.log(1));\n', eol: '\n', ops },
  { name: 'two ops in order', lang: ts, raw: 'console.log(1);\n', eol: '\n', ops: [...ops, { pat: 'logger.info($A)', out: 'log($A)' }] },
  { name: 'a pattern that does not parse', lang: ts, raw: 'console.log(1);\n', eol: '\n', ops: [{ pat: 'if (', out: 'x' }] },
];

for (const c of cases) {
  test(`pool and calling thread agree: ${c.name}`, async () => {
    const local = await rewriteText(c.lang, c.raw, c.eol, c.ops, true, 'f.ts');
    const pooled = await rewriteTextInPool(c.lang, c.raw, c.eol, c.ops, true, 'f.ts');
    assert.deepEqual(pooled, local);
    // a change comes back with the line sources and the diff read off them
    if (local.raw !== c.raw) assert.ok(pooled.lineSources instanceof Int32Array && pooled.diff?.diff?.startsWith('--- f.ts\n'));
    // and the tags of both LF texts, computed on the worker
    if (local.raw !== c.raw) assert.deepEqual(pooled.tags, { before: computeTag(lfText(c.raw)), after: computeTag(lfText(pooled.raw)) });
  });
}

test('texts of a built-in grammar run on a worker; stopRewritePool stops it', async () => {
  const out = await rewriteTextInPool(ts, 'console.log(1);\n', '\n', ops);
  assert.equal(out.raw, 'logger.info(1);\n');
  assert.ok(rewriteWorkers() >= 1);
  stopRewritePool();
  assert.equal(rewriteWorkers(), 0);
  // and a later call starts one again
  assert.equal((await rewriteTextInPool(ts, 'console.log(2);\n', '\n', ops)).raw, 'logger.info(2);\n');
  assert.ok(rewriteWorkers() >= 1);
});

test('many texts at once come back each with its own result', async () => {
  const texts = Array.from({ length: 200 }, (_, i) => `export const v${i} = ${i};\nconsole.log(v${i});\n`);
  const outs = await Promise.all(texts.map((t) => rewriteTextInPool(ts, t, '\n', ops, false)));
  outs.forEach((o, i) => assert.equal(o.raw, `export const v${i} = ${i};\nlogger.info(v${i});\n`));
});

test('texts asked for in one turn travel together: far fewer messages than texts, each outcome its own', async () => {
  await rewriteTextInPool(ts, 'console.log(0);\n', '\n', ops); // a worker running
  const before = rewriteMessages();
  const texts = Array.from({ length: 300 }, (_, i) => `console.log(${i});\n`);
  const outs = await Promise.all(texts.map((t) => rewriteTextInPool(ts, t, '\n', ops, true, 'f.ts')));
  outs.forEach((o, i) => {
    assert.equal(o.raw, `logger.info(${i});\n`);
    assert.deepEqual([...o.lineSources!], [-1]);
  });
  const sent = rewriteMessages() - before;
  assert.ok(sent >= 300 / 32 && sent <= 300 / 8, `${sent} messages for 300 texts`);
});

test('stopping the pool with texts still out: they are rewritten on the calling thread', async () => {
  const texts = Array.from({ length: 50 }, (_, i) => `console.log(${i});\n`);
  const outs = texts.map((t) => rewriteTextInPool(ts, t, '\n', ops));
  stopRewritePool();
  (await Promise.all(outs)).forEach((o, i) => assert.equal(o.raw, `logger.info(${i});\n`));
});

test('a coded error in a worker arrives with its code', async () => {
  const unknown: LanguageInfo = { id: 'NoSuchGrammar', extensions: [] };
  await assert.rejects(rewriteTextInPool(unknown, 'x', '\n', ops), (e: unknown) => isHashlineError(e) && e.code === 'unsupported_language');
});

test('a dynamic grammar is rewritten on the calling thread, with the same result', async (t) => {
  const py = languageForPath('a.py')!;
  const raw = 'print(1)\nprint(2)\n';
  const pyOps = [{ pat: 'print($A)', out: 'log($A)' }];
  let local;
  try {
    local = await rewriteText(py, raw, '\n', pyOps, true);
  } catch (e) {
    // only a grammar missing here is a reason to skip; any other failure is the test's
    if (!(isHashlineError(e) && e.code === 'unsupported_language')) throw e;
    return skipOrFail(t, `no python grammar on this platform (${e.message})`);
  }
  assert.deepEqual(await rewriteTextInPool(py, raw, '\n', pyOps, true), local);
  assert.equal(local.raw, 'log(1)\nlog(2)\n');
});
