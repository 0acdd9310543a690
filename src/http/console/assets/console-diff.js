// The console's diff tables: a unified table (old and new line numbers, mark, text) and a
// side-by-side table pairing removed with added lines, both drawn from the API's diff hunks.

import { el } from './console-dom.js';

const MARK = { ' ': ' ', '-': '−', '+': '+' };
const CLASS = { ' ': 'ctx', '-': 'del', '+': 'add' };
const hunkHeader = (h, span) => el('tr', { class: 'hunk' }, el('th', { colspan: span, scope: 'colgroup' }, `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`));

export function unifiedTable(hunks) {
  const body = el('tbody');
  for (const h of hunks) {
    body.append(hunkHeader(h, 4));
    for (const l of h.lines) body.append(el('tr', { class: CLASS[l.kind] }, el('td', { class: 'num' }, l.old ?? ''), el('td', { class: 'num' }, l.new ?? ''), el('td', { class: 'mark' }, MARK[l.kind]), el('td', { class: 'code' }, l.text)));
  }
  return el('table', { class: 'diff unified' }, el('caption', { class: 'sr-only' }, 'Unified diff'), el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Old'), el('th', { scope: 'col' }, 'New'), el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, 'Change')), el('th', { scope: 'col' }, 'Line'))), body);
}

export function splitTable(hunks) {
  const body = el('tbody');
  const side = (l, kind) => (l ? [el('td', { class: `num ${kind}` }, String(kind === 'del' || l.kind === ' ' ? l.old ?? '' : l.new ?? '')), el('td', { class: `code ${l.kind === ' ' ? 'ctx' : kind}` }, l.text)] : [el('td', { class: 'num empty' }), el('td', { class: 'code empty' })]);
  for (const h of hunks) {
    body.append(hunkHeader(h, 4));
    let i = 0;
    while (i < h.lines.length) {
      const l = h.lines[i];
      if (l.kind === ' ') {
        body.append(el('tr', {}, el('td', { class: 'num' }, String(l.old)), el('td', { class: 'code ctx' }, l.text), el('td', { class: 'num' }, String(l.new)), el('td', { class: 'code ctx' }, l.text)));
        i++;
        continue;
      }
      const dels = [];
      const adds = [];
      while (i < h.lines.length && h.lines[i].kind === '-') dels.push(h.lines[i++]);
      while (i < h.lines.length && h.lines[i].kind === '+') adds.push(h.lines[i++]);
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) body.append(el('tr', {}, ...side(dels[k], 'del'), ...side(adds[k], 'add')));
    }
  }
  return el('table', { class: 'diff split' }, el('caption', { class: 'sr-only' }, 'Side-by-side diff: old on the left, new on the right'), el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, 'Before'), el('th', { scope: 'col' }, '#'), el('th', { scope: 'col' }, 'After'))), body);
}
