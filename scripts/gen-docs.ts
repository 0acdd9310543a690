// Writes the generated pages of docs/ (see scripts/docs/) and the tool table of README.md (between
// its `tools:begin` / `tools:end` markers). Run with `npm run docs`; test/architecture/docs-sync.test.ts
// fails when a page or the table differs from what this makes.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDocs, spliceToolTable } from './docs/render-all.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pages = await renderDocs();
mkdirSync(path.join(repo, 'docs/tools'), { recursive: true });
// pages of tools that no longer exist go
for (const f of readdirSync(path.join(repo, 'docs/tools'))) {
  if (!(`docs/tools/${f}` in pages)) rmSync(path.join(repo, 'docs/tools', f));
}
for (const [file, text] of Object.entries(pages)) {
  writeFileSync(path.join(repo, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
const readme = path.join(repo, 'README.md');
if (existsSync(readme)) {
  const before = readFileSync(readme, 'utf8');
  const after = spliceToolTable(before);
  if (after !== before) {
    writeFileSync(readme, after);
    process.stdout.write('updated the tool table of README.md\n');
  }
}
