// Import extraction per language (lang/references/imports.ts) and where each import may point
// (lang/references/import-targets.ts), table-driven; comments and strings never count.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { candidatesOf, familiesFor, names, needleFor } from '../../../src/lang/references/import-targets.js';
import { importFamily, importsOf, type ImportRef } from '../../../src/lang/references/imports.js';
import { languageById, parseWith } from '../../../src/lang/grammar/registry.js';

function imports(lang: string, text: string): ImportRef[] {
  const l = languageById(lang)!;
  return importsOf(l, parseWith(l, text), text);
}

test('TypeScript/JavaScript: static, re-export, require, dynamic import, import = require; not comments, strings or computed specifiers', () => {
  const text = [
    "// import x from './no1'",
    "import a from './a';",
    "import type { B } from './b.js';",
    "export * from './c';",
    "const e = require('./e');",
    "const f = await import('./f');",
    "import g = require('./g');",
    "import './h';",
    "const s = \"require('./no2')\";",
    'const t = import(`./t`), u = import(`./${name}`), v = require(name);',
  ].join('\n');
  const got = imports('TypeScript', text).map((r) => (r.kind === 'path' ? `${r.spec}@${r.line}` : '?'));
  assert.deepEqual(got, ['./a@2', './b.js@3', './c@4', './e@5', './f@6', './g@7', './h@8', './t@10']);
  assert.deepEqual(imports('JavaScript', "const x = require('../x.cjs');\n").map((r) => (r as { spec: string }).spec), ['../x.cjs']);
});

test('Python: absolute, aliased, relative with levels, names imported from a module', () => {
  const got = imports('python', 'import a.b.c\nimport x as y, z\nfrom . import m\nfrom ..p.q import r, s as t\n"""import no"""\n');
  assert.deepEqual(
    got.map((r) => (r.kind === 'python' ? [r.level, r.module.join('.'), r.names.join(','), r.line] : [])),
    [[0, 'a.b.c', '', 1], [0, 'x', '', 2], [0, 'z', '', 2], [1, '', 'm', 3], [2, 'p.q', 'r,s', 4]],
  );
});

test('Rust: mod declarations (with #[path]), use trees of crate/self/super; inline modules and extern paths left out', () => {
  const got = imports('rust', 'mod foo;\nmod inline { }\n#[path = "other.rs"]\nmod bar;\nuse crate::a::{b, c::d};\nuse super::x as y;\nuse std::io;\n// mod no;\n');
  assert.deepEqual(
    got.map((r) => (r.kind === 'rust-mod' ? `mod ${r.name}${r.pathAttr ? `=${r.pathAttr}` : ''}@${r.line}` : r.kind === 'rust-use' ? `use ${r.segments.join('::')}@${r.line}` : '?')),
    ['mod foo@1', 'mod bar=other.rs@4', 'use crate::a::b@5', 'use crate::a::c::d@5', 'use super::x@6'],
  );
});

test('Go import specs; CSS @import (plain and url(), lists) and SCSS @use/@forward, not in comments or strings', () => {
  assert.deepEqual(
    imports('go', 'package m\nimport (\n\t"fmt"\n\tx "example.com/m/pkg"\n)\n').map((r) => (r.kind === 'go' ? `${r.path}@${r.line}` : '?')),
    ['fmt@3', 'example.com/m/pkg@4'],
  );
  const css = '/* @import "no.css"; */\n@import "a.css";\n@import url("b.css"), \'c.css\';\n@use "./d" as d;\n@forward "e";\n.x { content: "@import \\"no2.css\\"" }\n';
  assert.deepEqual(imports('Css', css).map((r) => (r.kind === 'path' ? `${r.spec}@${r.line}` : '?')), ['a.css@2', 'b.css@3', 'c.css@3', './d@4', 'e@5']);
});

test('where imports point: extensions, index files, TypeScript .js for .ts, Sass partials, Python and Rust modules', () => {
  const ctx = { rustSrcRoot: () => '/p/src' };
  const hits = (ref: ImportRef, importer: string, family: Parameters<typeof candidatesOf>[2], target: string, goImportPath?: string) =>
    names(candidatesOf(ref, importer, family, ctx), { real: target, goImportPath });
  const p = (spec: string): ImportRef => ({ kind: 'path', spec, line: 1 });
  assert.ok(hits(p('./util'), '/p/a.ts', 'script', '/p/util.ts'));
  assert.ok(hits(p('./util.js'), '/p/a.ts', 'script', '/p/util.ts'));
  assert.ok(hits(p('../lib'), '/p/x/a.ts', 'script', '/p/lib/index.tsx'));
  assert.ok(hits(p('.'), '/p/lib/a.ts', 'script', '/p/lib/index.js'));
  assert.ok(hits(p('./data.json'), '/p/a.ts', 'script', '/p/data.json'));
  assert.ok(!hits(p('util'), '/p/a.ts', 'script', '/p/util.ts'), 'a bare specifier is a package');
  assert.ok(!hits(p('./util2'), '/p/a.ts', 'script', '/p/util.ts'));
  assert.ok(hits(p('theme'), '/p/s/app.scss', 'style', '/p/s/_theme.scss'));
  assert.ok(hits(p('base.css'), '/p/s/site.css', 'style', '/p/s/base.css'));
  assert.ok(!hits(p('sass:math'), '/p/s/app.scss', 'style', '/p/s/sass:math'));
  const py = (level: number, module: string[], nm: string[]): ImportRef => ({ kind: 'python', level, module, names: nm, line: 1 });
  assert.ok(hits(py(0, ['pkg', 'mod'], []), '/p/main.py', 'python', '/p/src/pkg/mod.py'));
  assert.ok(hits(py(0, ['pkg'], ['mod']), '/p/main.py', 'python', '/p/pkg/mod.py'));
  assert.ok(hits(py(0, ['pkg'], []), '/p/main.py', 'python', '/p/pkg/__init__.py'));
  assert.ok(hits(py(2, ['q'], []), '/p/a/b/c.py', 'python', '/p/a/q.py'));
  assert.ok(!hits(py(1, ['q'], []), '/p/a/b/c.py', 'python', '/p/a/q.py'));
  const mod = (name: string): ImportRef => ({ kind: 'rust-mod', name, line: 1 });
  const use = (...segments: string[]): ImportRef => ({ kind: 'rust-use', segments, line: 1 });
  assert.ok(hits(mod('net'), '/p/src/main.rs', 'rust', '/p/src/net.rs'));
  assert.ok(hits(mod('tcp'), '/p/src/net.rs', 'rust', '/p/src/net/tcp.rs'));
  assert.ok(hits(mod('tcp'), '/p/src/net/mod.rs', 'rust', '/p/src/net/tcp/mod.rs'));
  assert.ok(hits(use('crate', 'net', 'tcp', 'Conn'), '/p/src/x.rs', 'rust', '/p/src/net/tcp.rs'));
  assert.ok(hits(use('super', 'util'), '/p/src/net/tcp.rs', 'rust', '/p/src/net/util.rs'));
  assert.ok(hits(use('self', 'tcp'), '/p/src/net/mod.rs', 'rust', '/p/src/net/tcp.rs'));
  assert.ok(hits({ kind: 'go', path: 'example.com/m/store', line: 1 }, '/p/cmd/main.go', 'go', '/p/store/a.go', 'example.com/m/store'));
  assert.ok(!hits({ kind: 'go', path: 'example.com/m/store', line: 1 }, '/p/cmd/main.go', 'go', '/p/store/a.go'));
});

test('which files may import a target, and the name they must contain', () => {
  assert.deepEqual(familiesFor('/p/a.ts'), ['script']);
  assert.deepEqual(familiesFor('/p/logo.png'), ['script']);
  assert.deepEqual(familiesFor('/p/_t.scss'), ['style', 'script']);
  assert.deepEqual(familiesFor('/p/m.py'), ['python']);
  assert.deepEqual(needleFor('/p/util.d.ts', 'script'), { needle: 'util', underDir: false });
  assert.deepEqual(needleFor('/p/lib/index.ts', 'script'), { needle: 'lib', underDir: true });
  assert.deepEqual(needleFor('/p/s/_theme.scss', 'style'), { needle: 'theme', underDir: false });
  assert.deepEqual(needleFor('/p/pkg/__init__.py', 'python'), { needle: 'pkg', underDir: true });
  assert.deepEqual(needleFor('/p/src/net/mod.rs', 'rust'), { needle: 'net', underDir: true });
  assert.deepEqual(needleFor('/p/store/a.go', 'go', 'example.com/m/store'), { needle: 'example.com/m/store', underDir: false });
  assert.equal(importFamily(languageById('Tsx')!), 'script');
  assert.equal(importFamily(languageById('java')!), undefined);
});
