// Legacy display-prefix stripping for fs_write (spec/hashline.md, "Write" step 1): text copied
// from an older read format (`12:code`, `>>12:code`, `+12:code`, a `[path#hash]` header, a diff's
// `+` column) is cleaned before it is written. The current format (`¶path#TAG`, `N| `) is never
// stripped. Deviation: a trailing newline the text had is kept (the reference loses it).

const PREFIXED = /^\s*(?:>>>|>>)?\s*(?:[+*-]\s*)?\d+:/;
const OLD_HEADER = /^\s*¶\S+#[0-9a-fA-F]{3}\s*$/;
const READ_NOTICE = /^\[(?:Showing lines \d+-\d+ of \d+|\d+ more lines? in (?:file|\S+))\b.*\bUse :L?\d+/;
const LEGACY_HEADER = /^\s*\[[^#\r\n]+#[^ \t\r\n]*\]\s*$/;

export interface StripResult {
  text: string;
  stripped: boolean;
}

/** Strips `N:` prefixes (all lines prefixed) or one `+` (half the lines or more). Null: nothing to strip. */
function stripLines(lines: readonly string[]): string[] | null {
  const content = lines.filter((l) => l.trim() !== '' && !OLD_HEADER.test(l) && !READ_NOTICE.test(l));
  if (content.length > 0 && content.every((l) => PREFIXED.test(l))) {
    return lines.filter((l) => !OLD_HEADER.test(l) && !READ_NOTICE.test(l)).map((l) => l.replace(PREFIXED, ''));
  }
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  const plus = nonEmpty.filter((l) => l.startsWith('+') && !l.startsWith('++'));
  if (nonEmpty.length > 0 && plus.length * 2 >= nonEmpty.length) {
    return lines.map((l) => (l.startsWith('+') && !l.startsWith('++') ? l.slice(1) : l));
  }
  return null;
}

export function stripWritePrefixes(text: string): StripResult {
  const hadNewline = text.endsWith('\n');
  const lines = (hadNewline ? text.slice(0, -1) : text).replace(/\r/g, '').split('\n');
  let out = stripLines(lines);
  if (!out) {
    const first = lines.findIndex((l) => l.trim() !== '');
    if (first >= 0 && LEGACY_HEADER.test(lines[first]!)) {
      const rest = [...lines.slice(0, first), ...lines.slice(first + 1)];
      out = stripLines(rest) ?? rest;
    }
  }
  if (!out) return { text, stripped: false };
  return { text: out.join('\n') + (hadNewline ? '\n' : ''), stripped: true };
}
