// fs_read on a real engine over a real tree: every target kind, the warnings that never abort the
// batch, CRLF/BOM/non-UTF-8 files, history recording and seen lines, directory symbol search.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import * as msg from '../../../src/core/messages/read.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import type { Engine } from '../../../src/tools/engine.js';
import { callContext, engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const call = callContext;
type Target = { path: string; line?: number; line_range?: string; symbol?: string; full?: boolean };
const read = async (engine: Engine, ...targets: Target[]) => (await fsReadTool.run(engine, { targets }, call())).structured.results!;

const RUST = ['use std::fmt;', '', 'pub fn greet(name: &str) -> String {', '    let msg = format!("hello {}", name);', '    msg', '}', ''].join('\n');

test('whole file, range, block and symbol reads of one file', async () => {
  const sb = await makeSandbox({ 'src/lib.rs': RUST });
  try {
    const engine = await engineFor(sb.root);
    const tag = computeTag(RUST);
    const [whole, range, block, symbol] = await read(
      engine,
      { path: 'src/lib.rs' },
      { path: 'src/lib.rs', line_range: '3-4' },
      { path: 'src/lib.rs', line: 3 },
      { path: 'src/lib.rs', symbol: 'greet', line: 1, line_range: '1-1' },
    );
    const header = `¶src/lib.rs#${tag}`;
    assert.deepEqual(whole, {
      path: 'src/lib.rs',
      file_hash: tag,
      sha256: createHash('sha256').update(RUST).digest('hex'),
      header,
      content: `${header}\n1| use std::fmt;\n2| \n3| pub fn greet(name: &str) -> String {\n4|     let msg = format!("hello {}", name);\n5|     msg\n6| }\n7| `,
    });
    assert.equal(range!.content, `${header}\n3| pub fn greet(name: &str) -> String {\n4|     let msg = format!("hello {}", name);\n[2 more lines in file; continue with line_range "5-6"]`);
    assert.equal(block!.content, `${header}\n3| pub fn greet(name: &str) -> String {\n4|     let msg = format!("hello {}", name);\n5|     msg\n6| }`);
    assert.equal(symbol!.content, block!.content, 'symbol wins over line and line_range');
  } finally {
    await sb.cleanup();
  }
});

test('problems are per-target warnings and never abort the batch', async () => {
  const sb = await makeSandbox({ 'a.txt': 'one\ntwo\n', 'src/x.ts': 'export const a = 1;\n', 'notes.xyz': 'hi\n' });
  try {
    const engine = await engineFor(sb.root, { block: ['secret'] });
    await fsp.mkdir(path.join(sb.root, 'secret'));
    const r = await read(
      engine,
      { path: 'missing.txt' },
      { path: 'src' },
      { path: 'a.txt', line_range: '9-10' },
      { path: 'a.txt', line_range: 'oops' },
      { path: 'src/x.ts', line: 1000 },
      { path: 'src/x.ts', symbol: 'nope' },
      { path: 'notes.xyz', symbol: 'hi' },
      { path: 'secret/k.txt' },
      { path: '../outside/secret.txt' },
      { path: 'a.txt' },
    );
    const tagA = computeTag('one\ntwo\n');
    const whole = `¶a.txt#${tagA}\n1| one\n2| two\n3| `;
    assert.deepEqual(r.map((x) => x.warnings ?? null), [
      'File not found: missing.txt',
      msg.directoryWithoutSymbol('src'),
      '[Range 9-10 is beyond end of file (2 lines total); skipped]',
      msg.lineRangeFormat('oops'),
      msg.blockNotResolved(1000, 'src/x.ts'),
      msg.symbolNotFound('nope', 'src/x.ts'),
      msg.noGrammar('notes.xyz'),
      'permission denied: `secret/k.txt` — path is in blocklist',
      'permission denied: `../outside/secret.txt` — path is outside project root',
      null,
    ]);
    assert.equal(r[0]!.content, '');
    assert.equal(r[1]!.header, '');
    assert.equal(r[2]!.content, `¶a.txt#${tagA}\n`);
    assert.equal(r[3]!.content, whole, 'a bad line_range returns the whole file');
    assert.equal(r[4]!.content.split('\n')[1], '1| export const a = 1;', 'an unresolved block returns the whole file');
    assert.equal(r[9]!.content, whole);
  } finally {
    await sb.cleanup();
  }
});

test('CRLF and BOM files read as LF text with the tag of the normalized text', async () => {
  const sb = await makeSandbox({ 'w.txt': '\ufeffalpha\r\nbeta  \r\n' });
  try {
    const engine = await engineFor(sb.root);
    const [r] = await read(engine, { path: 'w.txt' });
    const tag = computeTag('alpha\nbeta  \n');
    assert.equal(r!.content, `¶w.txt#${tag}\n1| alpha\n2| beta  \n3| `);
    assert.equal(r!.warnings, undefined);
  } finally {
    await sb.cleanup();
  }
});

test('a file that is not UTF-8: U+FFFD shown, a warning, the tag over the escaped text', async () => {
  const sb = await makeSandbox({ 'cp.txt': Uint8Array.of(0x6f, 0x6b, 0x0a, 0x54, 0x4d, 0x99, 0x0a) });
  try {
    const engine = await engineFor(sb.root);
    const [whole, range] = await read(engine, { path: 'cp.txt' }, { path: 'cp.txt', line_range: '2-2' });
    assert.equal(whole!.content.split('\n')[2], '2| TM\uFFFD');
    assert.equal(whole!.warnings, msg.notUtf8('cp.txt'));
    assert.equal(range!.content.split('\n')[1], '2| TM\uFFFD');
    assert.equal(range!.warnings, msg.notUtf8('cp.txt'));
    const real = path.join(sb.root, 'cp.txt');
    assert.equal(engine.history.head(real)?.text, 'ok\nTM\uDC99\n', 'history keeps the exact bytes (escaped)');
  } finally {
    await sb.cleanup();
  }
});

test('a symbol read of a file with a cp1252 byte elsewhere: the tag, line texts and warning of the whole-file read', async () => {
  // 0x92 (a cp1252 right quote) in the comment above the function and in a string inside it
  const bytes = Buffer.concat([Buffer.from('// it'), Buffer.from([0x92]), Buffer.from("s fine\nexport function quote(): string {\n  return 'don"), Buffer.from([0x92]), Buffer.from("t';\n}\n")]);
  const sb = await makeSandbox({ 'cp.ts': bytes });
  try {
    const engine = await engineFor(sb.root);
    const [whole, symbol] = await read(engine, { path: 'cp.ts' }, { path: 'cp.ts', symbol: 'quote' });
    assert.equal(symbol!.file_hash, whole!.file_hash);
    assert.ok(symbol!.file_hash !== '');
    assert.equal(symbol!.warnings, msg.notUtf8('cp.ts'));
    assert.equal(whole!.warnings, msg.notUtf8('cp.ts'));
    const body = (r: typeof whole) => r!.content.split('\n').filter((l) => /^[2-4]\| /.test(l));
    assert.deepEqual(body(symbol), body(whole));
    assert.deepEqual(body(symbol), ['2| export function quote(): string {', "3|   return 'don\uFFFDt';", '4| }']);
  } finally {
    await sb.cleanup();
  }
});

test('a symbol the parse cannot see (a comment closed early above it): the syntax error, where the name occurs, the next read', async () => {
  const src = '/** Maps a type. /* note */\n * It was added later.\n */\nexport function toExt(t: string) {\n  return t;\n}\n';
  const sb = await makeSandbox({ 'm.ts': src });
  try {
    const engine = await engineFor(sb.root);
    const [r] = await read(engine, { path: 'm.ts', symbol: 'toExt' });
    assert.equal(r!.file_hash, '');
    assert.ok(r!.warnings!.startsWith(msg.symbolNotFound('toExt', 'm.ts')));
    assert.match(r!.warnings!, /syntax error at line \d+, which can hide a definition; `toExt` occurs at line 4: read them with `fs_read` and line_range "2-24"\.$/);
    // a file that parses: the seed's text alone
    const sb2 = await makeSandbox({ 'ok.ts': 'export const a = 1;\n' });
    try {
      const [r2] = await read(await engineFor(sb2.root), { path: 'ok.ts', symbol: 'toExt' });
      assert.equal(r2!.warnings, msg.symbolNotFound('toExt', 'ok.ts'));
    } finally {
      await sb2.cleanup();
    }
  } finally {
    await sb.cleanup();
  }
});

test('every read records the snapshot and the lines it showed (not the elided interior)', async () => {
  const body = Array.from({ length: 40 }, (_, i) => `    x${i} = ${i}`).join('\n');
  const py = `def big():\n${body}\n    return 0\n`;
  const sb = await makeSandbox({ 'big.py': py });
  try {
    const engine = await engineFor(sb.root);
    const real = path.join(sb.root, 'big.py');
    const [r] = await read(engine, { path: 'big.py', symbol: 'big' });
    assert.deepEqual(r!.content.split('\n').slice(1), ['1| def big():', '2|     x0 = 0', '3|     x1 = 1', '…', '41|     x39 = 39', '42|     return 0', '[…37 lines elided; re-read with line_range "4-40"]']);
    const v = engine.history.head(real)!;
    assert.equal(v.text, py);
    assert.equal(v.tag, r!.file_hash);
    assert.deepEqual([...v.seen].sort((a, b) => a - b), [1, 2, 3, 41, 42]);
    await read(engine, { path: 'big.py', line_range: '10-11' });
    assert.deepEqual([...engine.history.head(real)!.seen].sort((a, b) => a - b), [1, 2, 3, 10, 11, 41, 42]);
    await read(engine, { path: 'big.py' });
    assert.equal(engine.history.head(real)!.seen.size, 42);
    assert.equal(engine.history.versions(real).length, 1);
  } finally {
    await sb.cleanup();
  }
});

test('full: a symbol or line read shows a long block whole and records every line; other reads ignore it', async () => {
  const body = Array.from({ length: 40 }, (_, i) => `    x${i} = ${i}`).join('\n');
  const py = `def big():\n${body}\n    return 0\n\ndef tail():\n    pass\n`;
  const sb = await makeSandbox({ 'big.py': py, 'dir/big.py': py });
  try {
    const engine = await engineFor(sb.root);
    const real = path.join(sb.root, 'big.py');
    const lines = ['def big():', ...Array.from({ length: 40 }, (_, i) => `    x${i} = ${i}`), '    return 0'].map((l, i) => `${i + 1}| ${l}`);
    const [bySymbol, byLine, inDir] = await read(engine, { path: 'big.py', symbol: 'big', full: true }, { path: 'big.py', line: 1, full: true }, { path: 'dir', symbol: 'big', full: true });
    assert.equal(bySymbol!.content, `${bySymbol!.header}\n${lines.join('\n')}`);
    assert.equal(byLine!.content, bySymbol!.content);
    assert.equal(inDir!.content, `${inDir!.header}\n${lines.join('\n')}`);
    assert.deepEqual([...engine.history.head(real)!.seen].sort((a, b) => a - b), Array.from({ length: 42 }, (_, i) => i + 1));
    // the default still elides; `full: false` is the default
    const [elided] = await read(engine, { path: 'big.py', symbol: 'big', full: false });
    assert.match(elided!.content, /\[…37 lines elided; re-read with line_range "4-40"\]$/);
    // a range or whole-file read has nothing to elide: the same reply with or without it
    const [a, b] = await read(engine, { path: 'big.py', line_range: '2-3', full: true }, { path: 'big.py', line_range: '2-3' });
    assert.equal(a!.content, b!.content);
    // the schema takes a boolean only
    assert.throws(() => fsReadTool.input.parse({ targets: [{ path: 'big.py', symbol: 'big', full: 'yes' }] }));
  } finally {
    await sb.cleanup();
  }
});

test('directory symbol search: one result per file, ignores .git, node_modules and .gitignore, stays fresh', async () => {
  const sb = await makeSandbox({
    'proj/.gitignore': 'build/\n',
    'proj/a.ts': 'export function target() {\n  return 1;\n}\n',
    'proj/deep/b.py': 'def target():\n    return 2\n',
    'proj/deep/c.go': 'package c\n\nfunc other() {}\n',
    'proj/deep/mention.rs': '// target is mentioned but not defined\nfn x() {}\n',
    'proj/build/gen.ts': 'export function target() {}\n',
    'proj/node_modules/m/index.js': 'function target() {}\n',
    'proj/.git/hooks/x.sh': 'target() { :; }\n',
    'proj/notes.txt': 'target\n',
  });
  try {
    const engine = await engineFor(sb.root);
    const r1 = await read(engine, { path: 'proj', symbol: 'target' });
    assert.deepEqual(r1.map((x) => x.path), ['proj/a.ts', 'proj/deep/b.py']);
    assert.equal(r1[1]!.content, `¶proj/deep/b.py#${computeTag('def target():\n    return 2\n')}\n1| def target():\n2|     return 2`);
    // the cache is invalidated when a file changes
    await fsp.writeFile(path.join(sb.root, 'proj/deep/b.py'), 'def other():\n    pass\n\n\ndef target(x):\n    return x\n');
    const r2 = await read(engine, { path: 'proj', symbol: 'target' });
    assert.equal(r2[1]!.content.split('\n').slice(1).join('\n'), '5| def target(x):\n6|     return x');
    const none = await read(engine, { path: 'proj', symbol: 'absent' });
    assert.deepEqual(none, [{ path: 'proj', file_hash: '', header: '', content: '', warnings: msg.symbolNotFound('absent', 'proj') }]);
  } finally {
    await sb.cleanup();
  }
});

test('a symbol read of a file elides and cuts long lines with both notices', async () => {
  const lines = ['function wide() {', `  const s = "${'w'.repeat(300)}";`, ...Array.from({ length: 30 }, (_, i) => `  f${i}();`), '}'];
  const sb = await makeSandbox({ 'w.js': `${lines.join('\n')}\n` });
  try {
    const engine = await engineFor(sb.root);
    const [r] = await read(engine, { path: 'w.js', symbol: 'wide' });
    const out = r!.content.split('\n');
    assert.equal(out[2], `2|   const s = "${'w'.repeat(197 - 13)}...`);
    assert.deepEqual(out.slice(-2), ['[…28 lines elided; re-read with line_range "4-31"]', msg.TRUNCATED_NOTICE]);
  } finally {
    await sb.cleanup();
  }
});

test('a directory search stops at 50 matching files with a notice', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 55; i++) files[`many/f${String(i).padStart(2, '0')}.py`] = 'def shared():\n    pass\n';
  const sb = await makeSandbox(files);
  try {
    const engine = await engineFor(sb.root);
    const r = await read(engine, { path: 'many', symbol: 'shared' });
    assert.equal(r.length, 51);
    assert.deepEqual(r[50], { path: 'many', file_hash: '', header: '', content: '', warnings: msg.symbolSearchCapped(50) });
    assert.equal(msg.symbolSearchCapped(50), '[Symbol search stopped after 50 matching files; narrow `path` to see the rest]');
  } finally {
    await sb.cleanup();
  }
});

test('a whole read of a 12 MB file stops at the reply limit and says how to continue', async () => {
  const line = `${'q'.repeat(60)} "quoted" \\ \t tab\n`;
  const count = Math.ceil((12 * 1024 * 1024) / Buffer.byteLength(line));
  const sb = await makeSandbox({ 'big.txt': line.repeat(count) });
  try {
    const engine = await engineFor(sb.root);
    const targets = [{ path: 'big.txt' }, { path: 'big.txt', line_range: '5-6' }, { path: 'big.txt' }, { path: 'big.txt' }];
    const out = await fsReadTool.run(engine, { targets }, call());
    const [whole, small, third, fourth] = out.structured.results!;
    const lines = whole!.content.split('\n');
    const shown = lines.length - 2; // header and the notice
    assert.ok(shown > 1000 && shown < count);
    assert.equal(lines.at(-1), `[Output stopped at the 4194304-byte reply limit; continue with line_range "${shown + 1}-${count}"]`);
    assert.equal(lines[shown], `${shown}| ${line.slice(0, -1)}`);
    for (const later of [small, third, fourth]) assert.equal(later!.warnings, msg.replyBudgetExhausted('big.txt'));
    const reply = Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: out.text }], structuredContent: out.structured }));
    assert.ok(reply < 8 * 1024 * 1024, `reply ${reply} bytes`);
  } finally {
    await sb.cleanup();
  }
});

test('a line_range of one line shows a long line whole; a wider range cuts it', async () => {
  const long = 'L'.repeat(5000);
  const sb = await makeSandbox({ 'l.txt': `a\n${long}\n` });
  try {
    const engine = await engineFor(sb.root);
    const [one, wide, clamped] = await read(engine, { path: 'l.txt', line_range: '2-2' }, { path: 'l.txt', line_range: '1-2' }, { path: 'l.txt', line_range: '2-9' });
    assert.equal(one!.content.split('\n')[1], `2| ${long}`);
    assert.equal(wide!.content.split('\n')[2], `2| ${'L'.repeat(197)}...`);
    assert.equal(clamped!.content.split('\n')[1], `2| ${'L'.repeat(197)}...`);
    assert.equal(clamped!.content.split('\n')[2], msg.TRUNCATED_NOTICE);
  } finally {
    await sb.cleanup();
  }
});
