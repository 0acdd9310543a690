// The rewrite engine on text: one rewrite per language, metavariable semantics, derived contexts,
// UTF-16 offsets, overlaps, line endings, and byte-for-byte agreement with the ast-grep CLI.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { compilePattern } from '../../../src/lang/rewrite/pattern-context.js';
import { languageForPath } from '../../../src/lang/grammar/registry.js';
import { applyEdits } from '../../../src/core/text/text-edits.js';
import { rewriteText, type RewriteOp } from '../../../src/lang/rewrite/rewrite.js';
import { REPO } from '../../helpers/mcp-client.js';

async function rw(file: string, src: string, ops: RewriteOp[], eol = '\n') {
  const lang = languageForPath(file);
  assert.ok(lang, `grammar for ${file}`);
  return rewriteText(lang, src, eol, ops);
}

const LANGUAGE_CASES: Array<{ file: string; src: string; pat: string; out: string; want: string }> = [
  {
    file: 'a.ts',
    src: 'const n: number = 1;\nconsole.log(n, "x");\n',
    pat: 'console.log($$$A)',
    out: 'logger.debug($$$A)',
    want: 'const n: number = 1;\nlogger.debug(n, "x");\n',
  },
  {
    file: 'a.tsx',
    src: 'export const A = () => <div onClick={() => console.log(1)}>hi</div>;\n',
    pat: 'console.log($A)',
    out: 'track($A)',
    want: 'export const A = () => <div onClick={() => track(1)}>hi</div>;\n',
  },
  {
    file: 'a.js',
    src: 'var x = require("a");\nvar y = require("b");\n',
    pat: 'var $N = require($M);',
    out: 'const $N = require($M);',
    want: 'const x = require("a");\nconst y = require("b");\n',
  },
  {
    file: 'a.py',
    src: 'def f(x):\n    print(x, 1)\n    return x\n',
    pat: 'print($$$A)',
    out: 'log.info($$$A)',
    want: 'def f(x):\n    log.info(x, 1)\n    return x\n',
  },
  {
    file: 'a.rs',
    src: 'fn main() {\n    let v = compute(1).unwrap();\n    println!("{}", v);\n}\n',
    pat: '$E.unwrap()',
    out: '$E.expect("value")',
    want: 'fn main() {\n    let v = compute(1).expect("value");\n    println!("{}", v);\n}\n',
  },
  {
    file: 'a.go',
    src: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("a", 1)\n\tx := fmt.Println("b")\n\t_ = x\n}\n',
    pat: 'fmt.Println($$$A)',
    out: 'log.Print($$$A)',
    want: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tlog.Print("a", 1)\n\tx := log.Print("b")\n\t_ = x\n}\n',
  },
  {
    file: 'A.java',
    src: 'class A {\n  void f(int x) {\n    System.out.println(x);\n  }\n}\n',
    pat: 'System.out.println($A)',
    out: 'LOG.info($A)',
    want: 'class A {\n  void f(int x) {\n    LOG.info(x);\n  }\n}\n',
  },
];

for (const c of LANGUAGE_CASES) {
  test(`rewrites ${c.file}`, async () => {
    const r = await rw(c.file, c.src, [{ pat: c.pat, out: c.out }]);
    assert.equal(r.raw, c.want);
    assert.equal(r.reports[0]!.patternError, undefined);
    assert.ok(r.reports[0]!.applied >= 1);
  });
}

test('Go: an expression pattern gets a function-body context (it does not parse at top level)', () => {
  const go = languageForPath('x.go')!;
  const c = compilePattern(go, 'fmt.Println($$$A)');
  assert.ok(c.ok);
  assert.ok(c.matchers.some((m) => typeof m === 'object'), 'a context/selector config besides the bare pattern');
});

test('Java: an expression pattern finds its statement context', () => {
  const c = compilePattern(languageForPath('A.java')!, 'System.out.println($A)');
  assert.ok(c.ok);
});

test('Rust: a statement pattern is matched inside function bodies', async () => {
  const src = 'fn main() {\n    let x = foo(1);\n    let y: i32 = 2;\n    return;\n}\n';
  const r = await rw('a.rs', src, [{ pat: 'let $A = foo($B);', out: 'let $A = bar($B);' }]);
  assert.equal(r.raw, 'fn main() {\n    let x = bar(1);\n    let y: i32 = 2;\n    return;\n}\n');
  const r2 = await rw('a.rs', src, [{ pat: 'return;', out: 'return ();' }]);
  assert.equal(r2.raw, src.replace('return;', 'return ();'));
});

test('patterns that only parse in a context or with metavariable artifacts still compile, as in ast-grep', async () => {
  const ok: Array<[string, string]> = [
    ['a.ts', 'async $M($$$P) { $$$B }'],
    ['a.rs', 'impl $T { $$$B }'],
    ['a.rs', '$X?'],
    ['a.go', '$A := $B'],
    ['A.java', 'public void $M() { $$$B }'],
    ['A.java', 'new $T($$$A)'],
    ['a.c', 'if ($C) { $$$B }'],
    ['a.py', 'def $F($$$P):\n    $$$B'],
  ];
  for (const [file, pat] of ok) assert.ok(compilePattern(languageForPath(file)!, pat).ok, `${file}: ${pat}`);
  const java = await rw('A.java', 'class A {\n  public void run() {\n    go();\n  }\n  public int x() { return 1; }\n}\n', [
    { pat: 'public void $M() { $$$B }', out: 'public synchronized void $M() { $$$B }' },
  ]);
  assert.equal(java.raw, 'class A {\n  public synchronized void run() { go(); }\n  public int x() { return 1; }\n}\n');
  const ts = await rw('a.ts', 'class A {\n  async run(x) { go(); }\n  sync() {}\n}\n', [{ pat: 'async $M($$$P) { $$$B }', out: 'async $M($$$P) { await ready(); $$$B }' }]);
  assert.equal(ts.raw, 'class A {\n  async run(x) { await ready(); go(); }\n  sync() {}\n}\n');
});

test('a class-field pattern ending in `;` takes the `;` that its node leaves to the class body', async () => {
  const r = await rw('a.tsx', 'class A {\n  private x: number;\n  y = 1;\n}\n', [{ pat: 'private $F: $T;', out: 'readonly $F: $T;' }]);
  assert.equal(r.raw, 'class A {\n  readonly x: number;\n  y = 1;\n}\n');
});

test('a metavariable used twice must capture equal text', async () => {
  const r = await rw('a.ts', 'foo(x, x);\nfoo(x, y);\nfoo(a.b, a.b);\n', [{ pat: 'foo($X, $X)', out: 'twice($X)' }]);
  assert.equal(r.raw, 'twice(x);\nfoo(x, y);\ntwice(a.b);\n');
  assert.equal(r.reports[0]!.matches, 2);
});

test('$$$NAME captures zero or more nodes', async () => {
  const r = await rw('a.js', 'f();\nf(1);\nf(1, 2, 3);\n', [{ pat: 'f($$$ARGS)', out: 'g($$$ARGS)' }]);
  assert.equal(r.raw, 'g();\ng(1);\ng(1, 2, 3);\n');
});

test('non-ASCII text before a match: offsets are UTF-16 code units, not bytes', async () => {
  const src = '// Ω café 日本語 🎉\nconst s = "ünïcödé 🎉"; console.log(s);\n';
  const r = await rw('a.ts', src, [{ pat: 'console.log($A)', out: 'logger.debug($A)' }]);
  assert.equal(r.raw, '// Ω café 日本語 🎉\nconst s = "ünïcödé 🎉"; logger.debug(s);\n');
});

test('overlapping (nested) matches: the outermost is rewritten, the nested one reported', async () => {
  const r = await rw('a.ts', 'f(f(1));\nf(2);\n', [{ pat: 'f($A)', out: 'g($A)' }]);
  assert.equal(r.raw, 'g(f(1));\ng(2);\n');
  assert.deepEqual(r.reports[0]!.overlapLines, [1]);
  assert.equal(r.reports[0]!.applied, 2);
  // a second pass rewrites what was left
  const again = await rw('a.ts', r.raw, [{ pat: 'f($A)', out: 'g($A)' }]);
  assert.equal(again.raw, 'g(g(1));\ng(2);\n');
});

test('applyEdits refuses overlapping edits with a coded error', () => {
  assert.throws(
    () => applyEdits('abcdef', [{ start: 0, end: 3, text: 'x' }, { start: 2, end: 4, text: 'y' }]),
    (e: { code?: string }) => e.code === 'edit_overlap',
  );
  assert.equal(applyEdits('abcdef', [{ start: 0, end: 1, text: 'X' }, { start: 3, end: 3, text: '-' }]), 'Xbc-def');
});

test('ops apply in order, each to the result of the one before', async () => {
  const r = await rw('a.ts', 'a(1);\n', [
    { pat: 'a($X)', out: 'b($X)' },
    { pat: 'b($X)', out: 'c($X, $X)' },
  ]);
  assert.equal(r.raw, 'c(1, 1);\n');
});

test('CRLF text: untouched lines keep CRLF, new lines get the file ending', async () => {
  const src = 'if (a) {\r\n  foo(1);\r\n}\n// last line without an ending';
  const r = await rw('a.ts', src, [{ pat: 'foo($A);', out: 'bar($A);\nbaz($A);' }], '\r\n');
  assert.equal(r.raw, 'if (a) {\r\n  bar(1);\r\n  baz(1);\r\n}\n// last line without an ending');
});

test('an unparsable pattern is reported, not thrown', async () => {
  const r = await rw('a.ts', 'f(1);\n', [{ pat: 'f($A', out: 'g($A)' }, { pat: 'a; b', out: 'c' }]);
  assert.equal(r.raw, 'f(1);\n');
  assert.ok(r.reports[0]!.patternError);
  assert.ok(r.reports[1]!.patternError);
});

test('templates: unbound names insert nothing, `$5` and `$a` are literal, as in ast-grep', async () => {
  const r = await rw('a.ts', 'foo(1);\n', [{ pat: 'foo($A)', out: 'bar($B, $A, "$5", $a)' }]);
  assert.equal(r.raw, 'bar(, 1, "$5", $a);\n');
});

// Byte-for-byte agreement with `ast-grep run -p PAT -r OUT -U` on the same input.
const AST_GREP = path.join(REPO, 'node_modules/.bin/ast-grep');
const CLI_CASES: Array<[string, string, string, string]> = [
  ['a.ts', 'const é = "ü"; console.log(a, b);\n', 'console.log($$$A)', 'logger.debug($$$A)'],
  ['b.ts', 'function f() {\n    foo(a,\n        b);\n    if (x) {\n        foo(c,\n            d)\n    }\n}\n', 'foo($$$A)', 'bar(\n  $$$A\n)'],
  ['c.ts', 'f(f(1));\n', 'f($A)', 'g($A)'],
  ['d.ts', 'class X {\n  m() {\n    return {\n      a: 1,\n\n      b: 2,\n    };\n  }\n}\n', 'return $A', 'yield {\n\n  v: $A\n}'],
  ['e.py', 'def f():\n    print(1,\n          2)\n', 'print($$$A)', 'log($$$A)'],
  ['f.ts', 'foo(1)\n', 'foo($A)', 'cost $$ $5 $$$ $a $A$ $_X $$$5'],
];

test('rewrites agree byte for byte with the ast-grep CLI', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hashline-sg-'));
  try {
    for (const [name, src, pat, out] of CLI_CASES) {
      const p = path.join(dir, name);
      writeFileSync(p, src);
      execFileSync(AST_GREP, ['run', '-p', pat, '-r', out, '-U', p], { stdio: 'pipe' });
      const expected = readFileSync(p, 'utf8');
      const got = (await rw(name, src, [{ pat, out }])).raw;
      assert.equal(got, expected, `${name}: ${pat} -> ${out}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
