// The generated documentation pages equal what their generators make from the code now.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { renderErrorsDoc } from '../../scripts/docs/render-errors.js';
import { CODES } from '../../src/core/codes.js';
import { REPO } from '../helpers/mcp-client.js';

test('docs/errors.md lists exactly the code table (run `npm run docs` after changing src/core/codes.ts)', () => {
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
