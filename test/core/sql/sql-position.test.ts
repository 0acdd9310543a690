import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqlCursorPosition } from '../../../src/core/sql/sql-position.js';

test('a cursor in code points becomes a 1-based line and a UTF-16 column', () => {
  const cases: Array<[string, number, number, number]> = [
    ['SELEC 1', 0, 1, 1],
    ['SELECT 1;\nSELEC 2;', 10, 2, 1],
    ['SELECT 1;\r\n  SELEC 2;', 13, 2, 3],
    // é is one unit, 😀 two units but one code point: the column after them counts units
    ["SELECT 'é😀' ;\n  SELEC 2;", 16, 2, 3],
    ["SELECT '😀😀', x y", 15, 1, 18],
    ['\n\nX', 0, 1, 1],
    ['\n\nX', 2, 3, 1],
    ['SELECT (1', 9, 1, 10],
    ['short', 99, 1, 6],
  ];
  for (const [text, cursor, line, column] of cases) {
    assert.deepEqual(sqlCursorPosition(text, cursor), { line, column }, JSON.stringify([text, cursor]));
  }
});
