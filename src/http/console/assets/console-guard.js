// The console's guard view: the roots, the allow, block and read-scope lists, the protected and
// sealed files, the configuration in force and the history store, drawn from /console/api/guard.

import { el } from './console-dom.js';

function list(title, items, none) {
  return [el('dt', {}, title), el('dd', {}, items === null ? el('span', { class: 'muted' }, none) : items.length === 0 ? el('span', { class: 'muted' }, 'none') : el('ul', {}, items.map((i) => el('li', {}, el('code', {}, i)))))];
}

/** The elements of the guard view. */
export function guardView(g) {
  const c = g.configuration;
  const h = g.history;
  const stats = h.stats ? `${h.stats.entries} entries, ${h.stats.blobs} contents (${h.stats.blobBytes} bytes)${h.stats.fileBytes !== undefined ? `, store ${h.stats.fileBytes} bytes` : ''}` : 'no counts';
  return [
    el('h3', {}, 'Paths'),
    el('dl', {}, list('Roots', g.roots.map((r) => (r.path === r.real ? r.path : `${r.path} → ${r.real}`))), list('Allowed outside the roots', g.allow), list('Blocked', g.block),
      list('Read scope: allowed', g.readAllow, 'same as the allow list'), list('Read scope: blocked', g.readBlock, 'same as the block list'), list('Protected from writes', g.protect), list('Sealed (no reads, no writes)', g.seal)),
    el('p', { class: 'note muted' }, 'Read scope lists, when set, replace the allow and block lists for reads. The console never shows the content of a path the read scope refuses.'),
    el('h3', {}, 'Configuration'),
    el('dl', {}, el('dt', {}, 'Generation'), el('dd', {}, `${c.generation} (identity ${c.identity})`), el('dt', {}, 'File'), el('dd', {}, c.file ?? 'none (defaults)'),
      c.lastError ? [el('dt', {}, 'Last edit refused'), el('dd', { class: 'error' }, `${c.lastError.at}: ${c.lastError.message}`)] : [],
      el('dt', {}, 'Hashes required for writes'), el('dd', {}, c.requireHash ? 'yes' : 'no'), el('dt', {}, 'Read modes'), el('dd', {}, c.readModes.join(', ')),
      el('dt', {}, 'Patch strategies'), el('dd', {}, c.patchStrategies.join(', ')), el('dt', {}, 'Aider matchers'), el('dd', {}, c.aiderMatchers.join(', '))),
    el('h3', {}, 'History'),
    el('dl', {}, el('dt', {}, 'Store'), el('dd', {}, `${h.backend}${h.durable ? ' (durable)' : ''}${h.location ? ` at ${h.location}` : ''}`), h.warning ? [el('dt', {}, 'Warning'), el('dd', { class: 'error' }, h.warning)] : [], el('dt', {}, 'Counts'), el('dd', {}, stats)),
  ];
}
