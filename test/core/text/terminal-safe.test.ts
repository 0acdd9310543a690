// Control characters shown escaped for a terminal: ESC sequences, CR, DEL, C1 controls and bidi
// overrides are written out; tab, line feed and ordinary text (non-ASCII included) stay.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeControls } from '../../../src/core/text/terminal-safe.js';

test('escapes what a terminal would act on, keeps the rest', () => {
  const cases: Array<[string, string]> = [
    ['\u001b[2J\u001b[H', '\\x1b[2J\\x1b[H'],
    ['\u001b]0;pwned\u0007', '\\x1b]0;pwned\\x07'],
    ['over\rwrite', 'over\\rwrite'],
    ['a\u0008b\u007fc', 'a\\x08b\\x7fc'],
    ['\u009b31m', '\\x9b31m'],
    ['admin\u202e\u2066txt.exe', 'admin\\u202e\\u2066txt.exe'],
    ['tab\tand\nline Ω é 😀', 'tab\tand\nline Ω é 😀'],
    ['\u0000', '\\x00'],
  ];
  for (const [raw, shown] of cases) assert.equal(escapeControls(raw), shown, JSON.stringify(raw));
});
