// The generated documentation pages equal what their generators make from the code now: the code
// table (docs/errors.md), one page per tool (docs/tools/NAME.md, its calls run for real), the
// index, and the README's tool table. Run `npm run docs` after changing a tool or a code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { renderDocs, spliceToolTable } from '../../scripts/docs/render-all.js';
import { renderErrorsDoc } from '../../scripts/docs/render-errors.js';
import { CODES } from '../../src/core/errors/codes.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { REPO } from '../helpers/mcp-client.js';

test('docs/errors.md lists exactly the code table (run `npm run docs` after changing src/core/errors/codes.ts)', () => {
  const page = readFileSync(path.join(REPO, 'docs/errors.md'), 'utf8');
  assert.equal(page, renderErrorsDoc());
  for (const code of Object.keys(CODES)) assert.match(page, new RegExp(`\\| \`${code}\` \\|`), code);
});

test('every boundary alias names a code of the table', () => {
  for (const [code, info] of Object.entries(CODES)) {
    const alias = (info as { boundary?: string }).boundary;
    if (alias !== undefined) assert.ok(alias in CODES, `${code} → ${alias}`);
  }
});

test('one page per tool, equal to what `npm run docs` makes now; the README tool table too', async () => {
  const pages = await renderDocs();
  for (const [file, text] of Object.entries(pages)) assert.equal(readFileSync(path.join(REPO, file), 'utf8'), text, `${file}: run \`npm run docs\``);
  const onDisk = readdirSync(path.join(REPO, 'docs/tools')).sort();
  assert.deepEqual(onDisk, [...ALL_TOOLS.map((t) => `${t.name}.md`), 'README.md'].sort());
  const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
  assert.equal(readme, spliceToolTable(readme), 'README tool table: run `npm run docs`');
  for (const t of ALL_TOOLS) assert.ok(readme.includes(`(docs/tools/${t.name}.md)`), t.name);
});

test('docs/ is self-contained: no references to files outside the repository or to how it was specified', () => {
  const bad: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) {
        // code spans (a `--seed` flag) and a benchmark's random seed are not about how the product was specified
        const text = readFileSync(p, 'utf8').replace(/`[^`\n]*`/g, '').replace(/\brandom seed\b|\bseeded\b/gi, '');
        for (const re of [/spec\/[a-z-]+\.md/, /\bseed\s*0\d\d\b/i, /\bseed\b/i, /reference daemon/i, /\.\.\/spec\//]) {
          const m = re.exec(text);
          if (m) bad.push(`${path.relative(REPO, p)}: ${m[0]}`);
        }
      }
    }
  };
  walk(path.join(REPO, 'docs'));
  assert.deepEqual(bad, []);
});
