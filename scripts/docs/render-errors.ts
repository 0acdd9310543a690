// Renders docs/errors.md from the one code table (src/core/errors/codes.ts). `npm run docs` writes it;
// test/architecture/docs-sync.test.ts fails when the page and the table differ.

import { CODES, type CodeInfo } from '../../src/core/errors/codes.js';

function row(code: string, info: CodeInfo): string {
  const next = info.next ? `\`${info.next}\`` : '';
  const shown = info.boundary ? `\`${info.boundary}\`` : '';
  return `| \`${code}\` | ${info.meaning.replace(/\|/g, '\\|')} | ${info.retryable ? 'yes' : 'no'} | ${next} | ${shown} |`;
}

export function renderErrorsDoc(): string {
  const entries = Object.entries(CODES) as Array<[string, CodeInfo]>;
  const shared = entries.filter(([, i]) => !i.boundaryOnly);
  const boundary = entries.filter(([, i]) => i.boundaryOnly);
  const head = '| code | meaning | retryable | suggested next call | boundary family shows |\n|---|---|---|---|---|';
  return [
    '# Error codes',
    '',
    'Every tool of both families and every HTTP route draws its error codes from one table',
    '(`src/core/errors/codes.ts`); this page is generated from it (`npm run docs`) and a test keeps the two equal.',
    'Codes are the contract; messages are for people and may change.',
    '',
    '- hashline tools (`fs_*`): `isError: true` with `structuredContent.error = { code, message, retryable, details?, suggestedNextCall? }`',
    '  (a failed `fs_edit` batch also carries `failed_path`, `cause`, `applied`, `skipped`).',
    '- boundary tools (`file_*`): `{ ok: false, error: { code, message, retryable, details?, suggestedNextCall? } }`, and the text',
    '  block is that JSON. Engine codes with an entry in the last column are shown as that code, the finer one kept in',
    '  `error.details.reason` (for example a symbolic link to outside is `path_denied` with `reason: "symlink_escape"`).',
    '- HTTP: a `text/plain` body with the code in the `hashline-error-code` header.',
    '',
    '`retryable` is the default: a call may say otherwise for a particular failure.',
    '',
    '## Codes of both families',
    '',
    head,
    ...shared.map(([c, i]) => row(c, i)),
    '',
    '## Codes of the boundary family',
    '',
    head,
    ...boundary.map(([c, i]) => row(c, i)),
    '',
  ].join('\n');
}
