// file_read over a real `hashline mcp`: exact text windows (zero-based, end-exclusive), the
// family's range errors, document selectors with ranges, symbols, source maps, modes and
// configuration; file_capabilities beside it.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

type ReadEntry = {
  filePath: string;
  sha256?: string;
  tag?: string;
  size?: number;
  content?: string;
  lossy?: boolean;
  truncated?: boolean;
  hasMore?: boolean;
  totalLines?: number;
  resolvedMode?: string;
  lines?: { requested: [number, number]; returned: [number, number] };
  byteOffset?: number;
  continueWith?: { start: number; end: number; byteOffset?: number };
  note?: string;
  ast?: {
    selections?: Array<{ selector: string; found: boolean; value?: unknown; range?: { start: { line: number; column: number } }; missing?: string }>;
    symbols?: Array<{ name: string; found: boolean; kind?: string; lines?: [number, number]; content?: string; lossy?: boolean }>;
    sourceMap?: Array<{ name: string; kind: string; lines: [number, number]; children?: Array<{ name: string }> }>;
  };
  capabilities?: { effective: { read: string[] } };
  error?: { code: string; message: string; details?: Record<string, unknown> };
};
type Read = { files: ReadEntry[] };

const LINES = Array.from({ length: 150 }, (_, i) => `line ${i}\r\n`).join('');
const TS = 'export class Box {\n  open(): void {}\n  close(): void {}\n}\n\nexport function main(): number {\n  return 1;\n}\n';

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox({
    'crlf.txt': LINES,
    'app.ts': TS,
    // a cp1252 right quote (0x92) in a comment above the function, and in a string inside it
    'cp.ts': Buffer.concat([Buffer.from('// it'), Buffer.from([0x92]), Buffer.from("s fine\nexport function quote(): string {\n  return 'don"), Buffer.from([0x92]), Buffer.from("t';\n}\n")]),
    'bin.dat': Buffer.from([0, 1, 2, 3, 0xff]),
    'conf.json': '{\n  "a/b": {"m~n": [10, 20]},\n  "list": [[1, 2], [3, {"deep": "x"}]]\n}\n',
    'tsconfig.jsonc': '{\n  // comment\n  "compilerOptions": {"strict": true,},\n}\n',
    'multi.yaml': 'base: &b {port: 80}\nsvc: *b\n---\nsecond: [a, b]\n',
    'Cargo.toml': '[package]\nname = "x"\n[[bin]]\nname = "one"\n[[bin]]\nname = "two"\n',
    'noeol.txt': 'a\nb',
    'secrets/key': 'SECRET\n',
    'dir/inner.txt': 'i\n',
  });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

const read = (files: unknown[]) => ok<Read>(mcp, 'file_read', { files });

test('text windows are exact bytes, zero-based and end-exclusive; the default is [0, 100]', async () => {
  const [def, tail, alias, noeol] = (await read([{ filePath: 'crlf.txt' }, { filePath: 'crlf.txt', range: { start: 148, end: 400 } }, { filePath: 'crlf.txt', lines: [2, 4] }, { filePath: 'noeol.txt', mode: 'text' }])).files;
  assert.equal(def!.content, LINES.split('\r\n').slice(0, 100).map((l) => `${l}\r\n`).join(''));
  assert.deepEqual(def!.lines, { requested: [0, 100], returned: [0, 100] });
  assert.equal(def!.hasMore, true);
  assert.equal(def!.truncated, false);
  assert.equal(def!.totalLines, 150);
  assert.equal(def!.sha256, sha256(LINES));
  assert.equal(def!.size, Buffer.byteLength(LINES));
  assert.equal(def!.resolvedMode, 'text');
  assert.equal(tail!.content, 'line 148\r\nline 149\r\n');
  assert.deepEqual(tail!.lines?.returned, [148, 150]);
  assert.equal(tail!.hasMore, false);
  assert.equal(alias!.content, 'line 2\r\nline 3\r\n');
  assert.equal(noeol!.content, 'a\nb');
  assert.equal(noeol!.totalLines, 2);
  const hashed = await ok<{ files: Array<{ sha256: string }> }>(mcp, 'file_hash', { filePaths: ['crlf.txt'] });
  assert.equal(hashed.files[0]!.sha256, def!.sha256, 'the same hash file_hash gives');
});

test('a window of a file of many chunks: its tag is the whole text\'s, whatever the chunks cut (CRLF, trailing blanks, bytes not UTF-8)', async () => {
  // lines of odd lengths so that chunk ends fall inside lines, inside CRLFs and inside blank runs
  const parts: Buffer[] = [Buffer.from('\uFEFF')];
  for (let i = 0; i < 120_000; i++) {
    const body = `row ${i} ${'x'.repeat(i % 37)}`;
    if (i % 5 === 0) parts.push(Buffer.from(`${body}  \r\n`));
    else if (i % 7 === 0) parts.push(Buffer.concat([Buffer.from(body), Buffer.from([0x92]), Buffer.from('\t\n')]));
    else parts.push(Buffer.from(`${body}\n`));
  }
  const bytes = Buffer.concat(parts);
  assert.ok(bytes.length > 3 * 1024 * 1024);
  await fsp.writeFile(path.join(sb.root, 'chunks.txt'), bytes);
  const [r] = (await read([{ filePath: 'chunks.txt', lines: [119_990, 120_000] }])).files;
  assert.equal(r!.sha256, sha256(bytes));
  assert.equal(r!.tag, computeTag(docText(parseDoc(bytes))));
});

test('maxBytes cuts at the last whole line and says there is more', async () => {
  const [r] = (await read([{ filePath: 'crlf.txt', lines: [0, 10], maxBytes: 25 }])).files;
  assert.equal(r!.content, 'line 0\r\nline 1\r\nline 2\r\n');
  assert.equal(r!.truncated, true);
  assert.equal(r!.hasMore, true);
  assert.deepEqual(r!.lines?.returned, [0, 3]);
});

test('long lines: maxBytes up to 1 MiB is honoured, a cut line is never reported as returned, and byteOffset reaches the rest', async () => {
  // one line of 500 KB comes back whole
  const line500 = 'a'.repeat(500_000);
  await fsp.writeFile(path.join(sb.root, 'one500k.txt'), line500);
  const [r500] = (await read([{ filePath: 'one500k.txt', lines: [0, 1] }])).files;
  assert.equal(r500!.content!.length, 500_000);
  assert.equal(r500!.truncated, false);
  assert.deepEqual(r500!.lines?.returned, [0, 1]);
  // a line of about 2.4 MB (1-, 2-, 3- and 4-byte characters) is read in parts, each cut at a character boundary
  const long = 'aé€😀'.repeat(240_000) + '\nnext line\n';
  await fsp.writeFile(path.join(sb.root, 'long.txt'), long);
  let got = '';
  let offset: number | undefined;
  for (let calls = 0; ; calls++) {
    assert.ok(calls < 4, 'three reads reach the end of the line');
    const [r] = (await read([{ filePath: 'long.txt', lines: [0, 1], ...(offset === undefined ? {} : { byteOffset: offset }) }])).files;
    assert.equal(r!.lossy, undefined);
    got += r!.content!;
    if (!r!.truncated) {
      assert.deepEqual(r!.lines?.returned, [0, 1], 'the end of the line was reached: it counts as returned');
      break;
    }
    assert.deepEqual(r!.lines?.returned, [0, 0], 'a cut line is not returned');
    assert.ok(Buffer.byteLength(r!.content!) <= 1024 * 1024 && Buffer.byteLength(r!.content!) > 1024 * 1024 - 4, 'maxBytes defaults to 1 MiB');
    assert.equal(r!.continueWith?.start, 0);
    offset = r!.continueWith!.byteOffset!;
    assert.equal(offset, (r!.byteOffset ?? 0) + Buffer.byteLength(r!.content!));
    assert.equal(r!.note, `line 0 was cut after byte ${offset} of it (maxBytes or the reply limit); continue with lines [0, 1] and byteOffset ${offset}`);
  }
  assert.equal(got, long.split('\n')[0] + '\n');
  // small maxBytes: whole lines first; a line alone is cut, and an offset inside a character moves on to the next one
  const [whole, part, mid, past] = (
    await read([
      { filePath: 'long.txt', lines: [1, 3], maxBytes: 8 },
      { filePath: 'long.txt', lines: [1, 3], byteOffset: 2, maxBytes: 4 },
      { filePath: 'long.txt', lines: [0, 1], byteOffset: 2, maxBytes: 3 },
      { filePath: 'long.txt', lines: [1, 3], byteOffset: 99 },
    ])
  ).files;
  assert.equal(whole!.content, 'next lin');
  assert.deepEqual([whole!.lines?.returned, whole!.continueWith], [[1, 1], { start: 1, end: 3, byteOffset: 8 }]);
  assert.equal(part!.content, 'xt l');
  assert.deepEqual(part!.continueWith, { start: 1, end: 3, byteOffset: 6 });
  assert.equal(mid!.content, '€', 'offset 2 is inside é: the read starts at the next character');
  assert.equal(mid!.byteOffset, 3);
  assert.deepEqual(mid!.continueWith, { start: 0, end: 1, byteOffset: 6 });
  assert.equal(past!.content, '');
  assert.deepEqual(past!.lines?.returned, [1, 2], 'an offset past the line\'s end: the line was reached, nothing is left of it');
  const bad = (await read([{ filePath: 'long.txt', byteOffset: 3 }, { filePath: 'long.txt', lines: [0, 1], byteOffset: -1 }])).files;
  assert.equal(bad[0]!.error?.code, 'invalid_range');
  assert.match(bad[0]!.error!.message, /byteOffset needs a window/);
  assert.equal(bad[1]!.error?.code, 'invalid_range');
});

test('request errors use the family wording and stay in their own entry', async () => {
  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ lines: [-1, 3] }, 'invalid_range', /^file_read line start must be a non-negative integer$/],
    [{ range: { start: 5, end: 5 } }, 'invalid_range', /^file_read line end must be greater than line start$/],
    [{ lines: [0, 1001] }, 'invalid_range', /^file_read line ranges are capped at 1000 lines$/],
    [{ maxBytes: 0 }, 'invalid_range', /^file_read maxBytes must be between 1 and 1048576$/],
    [{ maxBytes: 1048577 }, 'invalid_range', /^file_read maxBytes must be between 1 and 1048576$/],
    [{ lines: [0, 2], range: { start: 0, end: 2 } }, 'invalid_arguments', /either range or lines/],
    [{ selectors: ['/a'], symbols: ['b'] }, 'invalid_arguments', /either selectors or symbols/],
  ];
  const files = [...cases.map(([extra]) => ({ filePath: 'crlf.txt', ...extra })), { filePath: 'noeol.txt' }];
  const out = (await read(files)).files;
  cases.forEach(([, code, message], i) => {
    assert.equal(out[i]!.error?.code, code, JSON.stringify(cases[i]![0]));
    assert.match(out[i]!.error!.message, message);
  });
  assert.equal(out[cases.length]!.content, 'a\nb', 'the good entry is still read');
});

test('selectors: nested arrays, ~0/~1 escapes, `-`, JSONC, YAML anchors and documents, TOML arrays of tables', async () => {
  const out = (
    await read([
      { filePath: 'conf.json', selectors: ['/a~1b/m~0n/1', '/list/1/1/deep', '/list/-', '/nope', ''] },
      { filePath: 'tsconfig.jsonc', selectors: ['/compilerOptions/strict'] },
      { filePath: 'multi.yaml', selectors: ['/0/svc/port', '/1/second/1'] },
      { filePath: 'Cargo.toml', selectors: ['/bin/1/name', '/package'] },
    ])
  ).files;
  const [json, jsonc, yaml, toml] = out.map((f) => f.ast!.selections!);
  // ranges are zero-based (line and column), the end exclusive, as text windows are
  assert.deepEqual(json![0], { selector: '/a~1b/m~0n/1', found: true, value: 20, range: { start: { line: 1, column: 22 }, end: { line: 1, column: 24 } } });
  assert.equal(json![1]!.value, 'x');
  assert.deepEqual(json![2], { selector: '/list/-', found: false, missing: '/list/-' });
  assert.deepEqual(json![3], { selector: '/nope', found: false, missing: '/nope' });
  assert.deepEqual((json![4]!.value as { list: unknown[] }).list.length, 2);
  assert.equal(jsonc![0]!.value, true);
  assert.equal(yaml![0]!.value, 80);
  assert.equal(yaml![1]!.value, 'b');
  assert.equal(yaml![1]!.range?.start.line, 3);
  assert.equal(toml![0]!.value, 'two');
  assert.deepEqual(toml![1]!.value, { name: 'x' });
  assert.deepEqual(toml![0]!.range, { start: { line: 5, column: 7 }, end: { line: 5, column: 12 } }, 'TOML selections have ranges too');
  assert.deepEqual(toml![1]!.range, { start: { line: 0, column: 0 }, end: { line: 1, column: 10 } }, 'a table spans its header and its keys');
  assert.equal(out[0]!.resolvedMode, 'ast');
  assert.equal(out[0]!.sha256, sha256(await fsp.readFile(path.join(sb.root, 'conf.json'))));
});

test('a selection range addresses the text a window read of its lines shows, in every document format', async () => {
  const cases: Array<[string, string]> = [
    ['conf.json', '/list/1/1/deep'],
    ['multi.yaml', '/1/second/1'],
    ['Cargo.toml', '/bin/0/name'],
  ];
  for (const [filePath, selector] of cases) {
    const sel = (await read([{ filePath, selectors: [selector] }])).files[0]!.ast!.selections![0]! as unknown as { value: unknown; range: { start: { line: number; column: number }; end: { line: number; column: number } } };
    const { start, end } = sel.range;
    assert.equal(start.line, end.line, filePath);
    const window = (await read([{ filePath, lines: [start.line, start.line + 1] }])).files[0]!.content!;
    const shown = window.slice(start.column, end.column).replace(/^"|"$/g, '');
    assert.equal(shown, String(sel.value), `${filePath} ${selector}`);
  }
});

test('selector errors: a bad pointer, a format without selectors, a broken document', async () => {
  await fsp.writeFile(path.join(sb.root, 'broken.json'), '{\n  "a": ,\n}\n');
  const out = (await read([{ filePath: 'conf.json', selectors: ['a'] }, { filePath: 'app.ts', mode: 'ast', selectors: ['/x'] }, { filePath: 'broken.json', selectors: ['/a'] }])).files;
  assert.equal(out[0]!.error?.code, 'invalid_document_selector');
  assert.equal(out[1]!.error?.code, 'document_format_unsupported');
  assert.equal(out[2]!.error?.code, 'document_parse_error');
  assert.equal(out[2]!.error?.details?.line, 2);
});

test('symbols and the source map: zero-based lines a text read can take back', async () => {
  const [syms, auto, windowed] = (await read([{ filePath: 'app.ts', symbols: ['main', 'missing'] }, { filePath: 'app.ts' }, { filePath: 'app.ts', lines: [5, 8] }])).files;
  const main = syms!.ast!.symbols![0]!;
  assert.deepEqual({ found: main.found, lines: main.lines }, { found: true, lines: [5, 8] });
  assert.equal(main.content, 'export function main(): number {\n  return 1;\n}\n');
  assert.deepEqual(syms!.ast!.symbols![1], { name: 'missing', found: false });
  assert.equal(windowed!.content, main.content, 'the symbol lines read as a text window');
  assert.equal(auto!.resolvedMode, 'ast');
  const names = auto!.ast!.sourceMap!.map((e) => e.name);
  assert.deepEqual(names, ['Box', 'main']);
  assert.deepEqual(auto!.ast!.sourceMap![0]!.children?.map((c) => c.name), ['open', 'close']);
  assert.equal(windowed!.resolvedMode, 'text');
});

test('symbols of a file with a byte that is not UTF-8: the same text as a text window (U+FFFD, lossy)', async () => {
  const [syms, windowed] = (await read([{ filePath: 'cp.ts', symbols: ['quote'] }, { filePath: 'cp.ts', lines: [1, 4] }])).files;
  const quote = syms!.ast!.symbols![0]!;
  assert.deepEqual({ found: quote.found, lines: quote.lines, lossy: quote.lossy }, { found: true, lines: [1, 4], lossy: true });
  assert.equal(quote.content, "export function quote(): string {\n  return 'don\uFFFDt';\n}\n");
  assert.equal(quote.content, windowed!.content);
  assert.equal(windowed!.lossy, true);
  assert.ok(!/[\uD800-\uDFFF]/.test(quote.content!), 'no lone surrogate');
});

test('per-file refusals: binary text read, directory, missing, read-blocked, outside', async () => {
  const out = (await read([{ filePath: 'bin.dat', mode: 'text' }, { filePath: 'dir' }, { filePath: 'gone.txt' }, { filePath: 'secrets/key' }, { filePath: '../outside/secret.txt' }])).files;
  assert.deepEqual(
    out.map((f) => f.error?.code),
    ['read_mode_unavailable', 'is_directory', 'not_found', 'path_denied', 'path_denied'],
  );
  assert.doesNotMatch(JSON.stringify(out), /SECRET/);
});

test('file_capabilities: kinds, parse health, documents, configuration', async () => {
  await fsp.writeFile(path.join(sb.root, 'bad.ts'), 'export function (\n  x\n');
  type Caps = {
    configuration: { generation: number; identity: string; readModes: string[] };
    files: Array<{ filePath: string; kind?: string; language?: string; parse?: { status: string; errorCount?: number; firstError?: { line: number } }; intrinsic?: { read: string[]; patch: string[]; selectors: string[] }; effective?: { read: string[]; patch: string[]; aiderMatchers: string[] }; error?: { code: string } }>;
  };
  const caps = await ok<Caps>(mcp, 'file_capabilities', { filePaths: ['app.ts', 'bad.ts', 'conf.json', 'bin.dat', 'dir', 'gone.txt', 'secrets/key', 'crlf.txt'] });
  const [app, bad, conf, bin, dir, gone, secret, txt] = caps.files;
  assert.equal(app!.kind, 'text');
  assert.equal(app!.language, 'TypeScript');
  assert.deepEqual(app!.parse, { status: 'parseable', errorCount: 0 });
  assert.deepEqual(app!.effective, { read: ['ast', 'text'], patch: ['ast', 'aider_block'], aiderMatchers: ['exact', 'whitespace', 'relative-indentation', 'diff-match-patch'] });
  assert.equal(bad!.parse?.status, 'invalid');
  assert.ok((bad!.parse?.errorCount ?? 0) >= 1);
  assert.equal(bad!.parse?.firstError?.line, 1);
  assert.deepEqual(conf!.intrinsic?.selectors, ['json']);
  assert.equal(bin!.kind, 'binary');
  assert.deepEqual(bin!.effective?.read, []);
  assert.equal(dir!.kind, 'directory');
  assert.equal(gone!.kind, 'missing');
  assert.equal(secret!.error?.code, 'path_denied');
  assert.deepEqual(txt!.effective?.read, ['text'], 'no grammar: text only');
  assert.equal(caps.configuration.generation, 1);
});

test('[files.read] modes = ["text"] turns AST reads off: ast refused, auto reads text; the generation moves', async () => {
  const sb2 = await makeSandbox({ 'app.ts': TS });
  const cfg = path.join(sb2.base, 'cfg.toml');
  await fsp.writeFile(cfg, '');
  const s = await connectMcp(['--root', sb2.root, '--config', cfg]);
  try {
    type Caps = { configuration: { generation: number; lastError?: { message: string } } };
    const g1 = (await ok<Caps>(s, 'file_capabilities', { filePaths: ['app.ts'] })).configuration.generation;
    await fsp.writeFile(cfg, '[files.read]\nmodes = ["text"]\n');
    const [ast, auto] = (await ok<Read>(s, 'file_read', { files: [{ filePath: 'app.ts', mode: 'ast' }, { filePath: 'app.ts' }] })).files;
    assert.equal(ast!.error?.code, 'read_mode_unavailable');
    assert.equal(auto!.resolvedMode, 'text');
    const after1 = await ok<Caps>(s, 'file_capabilities', { filePaths: ['app.ts'] });
    assert.equal(after1.configuration.generation, g1 + 1);
    await fsp.writeFile(cfg, '[files.read]\nmodes = "text"\n');
    const after2 = await ok<Caps>(s, 'file_capabilities', { filePaths: ['app.ts'] });
    assert.equal(after2.configuration.generation, g1 + 1, 'an invalid edit keeps the last good generation');
    assert.match(after2.configuration.lastError?.message ?? '', /line 2/);
  } finally {
    await s.close();
    await sb2.cleanup();
  }
});

test('a whole batch of large windows stays within one reply', async () => {
  const big = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(5, '0')} ${'x'.repeat(900)}\n`).join('');
  await fsp.writeFile(path.join(sb.root, 'big.txt'), big);
  const r = await mcp.call('file_read', { files: Array.from({ length: 8 }, () => ({ filePath: 'big.txt', lines: [0, 1000] })) });
  const data = (r.structuredContent as { ok: boolean; data: Read }).data;
  const total = data.files.reduce((n, f) => n + (f.content?.length ?? 0), 0);
  assert.ok(total <= 2 * 1024 * 1024, `content ${total} within the batch budget`);
  assert.ok(data.files.some((f) => f.truncated), 'later files are cut');
  for (const f of data.files) if (f.content) assert.ok(big.startsWith(f.content), 'every cut is at a line boundary of the real text');
});

test('a call with a bad selector list is refused as a whole only for schema errors', async () => {
  const e = await fails(mcp, 'file_read', { files: [{ filePath: 'conf.json', selectors: [] }] });
  assert.equal(e.code, 'invalid_arguments');
});
