// The console's words for a log entry: what changed (made, first seen, changed outside hashline,
// renamed, deleted), who, and the cell of lines added and removed.

import { el } from './console-dom.js';

/** True for a version hashline did not make: a tool saw it on disk after an earlier version. */
export const outside = (e) => e.op === 'seen' && e.firstSeen === false;

/**
 * What changed. A `seen` version names the tool that saw it (`short`: not, where a "by" column
 * beside it says so): hashline did not make it.
 */
export function changeText(e, short = false) {
  if (e.op === 'rename') return `renamed ${e.detail === null ? '' : `(${e.detail})`}`;
  if (e.op === 'delete') return 'deleted';
  const what = e.kind === 'bytes' ? 'binary' : e.tag ?? '';
  const tail = what ? ` · ${what}` : '';
  const by = short ? '' : ` by ${e.tool ?? '-'}`;
  if (outside(e)) return `changed outside hashline${short ? '' : `, seen${by}`}${tail}`;
  if (e.op === 'seen' && e.firstSeen === true) return `first seen${by}${tail}`;
  return `${e.op} ${what}`.trim();
}

export function linesCell(e, tag = 'td') {
  if (!e.readable) return el(tag, { class: 'lines muted', title: 'the read policy refuses this path: no content is shown' }, 'hidden');
  if (e.added === null) return el(tag, { class: 'lines muted' }, '–');
  return el(tag, { class: 'lines' }, el('span', { class: 'add', 'aria-label': `${e.added} added` }, `+${e.added}`), ' ', el('span', { class: 'del', 'aria-label': `${e.removed} removed` }, `−${e.removed}`));
}

export function clientText(e) {
  return e.clientName ? `${e.client ?? '-'} (${e.clientName})` : e.client ?? '-';
}
