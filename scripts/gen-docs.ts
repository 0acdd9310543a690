// Writes the generated pages of docs/ (see scripts/docs/). Run with `npm run docs`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderErrorsDoc } from './docs/render-errors.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pages: Record<string, string> = { 'docs/errors.md': renderErrorsDoc() };
for (const [file, text] of Object.entries(pages)) {
  writeFileSync(path.join(repo, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
