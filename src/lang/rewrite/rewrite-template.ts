// Replacement templates of structural rewrites, with ast-grep's own semantics so a rewrite gives
// the bytes `ast-grep run -p PAT -r OUT` gives: `$NAME` inserts a single capture, `$$$NAME` the
// source from the first to the last node of a multiple capture, an unbound name inserts nothing;
// multi-line captures are re-indented to the column of the variable in the template, and a
// multi-line replacement is indented to the line of the match. Offsets are UTF-16 code units
// (JavaScript string indices), as ast-grep's napi positions are; only spaces count as indentation.

/** A metavariable of a template: its name, whether it is `$$$NAME`, and the template indentation at it. */
export interface TemplateVar {
  readonly name: string;
  readonly multi: boolean;
  readonly indent: number;
}

/** `fragments.length === vars.length + 1`: text, var, text, var, ..., text. */
export interface Template {
  readonly fragments: readonly string[];
  readonly vars: readonly TemplateVar[];
}

/** A capture as a half-open range [start, end) of UTF-16 code units in the source. */
export interface CaptureRange {
  readonly start: number;
  readonly end: number;
}

const MAX_LOOK_BEHIND = 512;
const isNameStart = (c: string | undefined) => c !== undefined && /[A-Z_]/.test(c);
const isNameChar = (c: string | undefined) => c !== undefined && /[A-Z0-9_]/.test(c);

/** The indentation (leading spaces) of the line that `src.slice(0, offset)` ends in, as ast-grep counts it. */
export function indentAt(src: string, offset: number): number {
  const from = Math.max(0, offset - MAX_LOOK_BEHIND);
  let indent = 0;
  for (let i = offset - 1; i >= from; i--) {
    const c = src.charCodeAt(i);
    if (c === 0x0a) return indent;
    indent = c === 0x20 ? indent + 1 : 0;
  }
  return from === 0 ? indent : 0;
}

/** Splits a template into literal fragments and metavariables. */
export function parseTemplate(tmpl: string): Template {
  const fragments: string[] = [];
  const vars: TemplateVar[] = [];
  let last = 0;
  let i = tmpl.indexOf('$');
  while (i !== -1) {
    let dollars = 0;
    while (dollars < 3 && tmpl[i + dollars] === '$') dollars++;
    const multi = dollars === 3;
    let end = i + dollars;
    if (isNameStart(tmpl[end])) while (isNameChar(tmpl[end])) end++;
    if (end > i + dollars) {
      fragments.push(tmpl.slice(last, i));
      vars.push({ name: tmpl.slice(i + dollars, end), multi, indent: indentAt(tmpl, i) });
      last = end;
      i = tmpl.indexOf('$', end);
    } else {
      i = tmpl.indexOf('$', i + 1);
    }
  }
  fragments.push(tmpl.slice(last));
  return { fragments, vars };
}

function removeIndent(text: string, n: number): string {
  const prefix = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => (l.startsWith(prefix) ? l.slice(n) : l))
    .join('\n');
}

function addIndent(text: string, n: number): string {
  if (n === 0) return text;
  const lines = text.split('\n');
  const pad = ' '.repeat(n);
  return lines.map((l, k) => (k === 0 ? l : pad + l)).join('\n');
}

/** The text of a capture, re-indented from its own line's indentation to `indent`. */
function captureText(source: string, range: CaptureRange, indent: number): string {
  const text = source.slice(range.start, range.end);
  if (!text.includes('\n')) return text;
  const original = indentAt(source, range.start);
  if (original === indent) return text;
  return original > indent ? removeIndent(text, original - indent) : addIndent(text, indent - original);
}

/**
 * The replacement for a match starting at `matchStart` in `source`. `capture` returns the range of
 * a single (`multi` false) or multiple capture, or null when the name is not bound.
 */
export function renderTemplate(
  template: Template,
  source: string,
  matchStart: number,
  capture: (name: string, multi: boolean) => CaptureRange | null,
): string {
  let out = template.fragments[0] ?? '';
  template.vars.forEach((v, k) => {
    const range = capture(v.name, v.multi);
    if (range !== null) out += captureText(source, range, v.indent);
    out += template.fragments[k + 1] ?? '';
  });
  return addIndent(out, indentAt(source, matchStart));
}
