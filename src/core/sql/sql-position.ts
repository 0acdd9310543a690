// Where a PostgreSQL parse error points. The parser reports a cursor position counted in characters
// (code points) of the text, 0-based as libpg-query hands it over; diagnostics say 1-based lines and
// 1-based columns in UTF-16 code units, as JavaScript strings (and the rest of hashline) count.

export interface SqlPosition {
  line: number;
  column: number;
}

/** The 1-based line and column of the code point at `cursor` (clamped to the text's end). */
export function sqlCursorPosition(text: string, cursor: number): SqlPosition {
  let index = 0;
  for (let seen = 0; seen < cursor && index < text.length; seen++) {
    const unit = text.charCodeAt(index);
    const pair = unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
    index += pair ? 2 : 1;
  }
  const lineStart = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < lineStart; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: index - lineStart + 1 };
}
