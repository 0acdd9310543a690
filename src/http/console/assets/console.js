// The hashline console's page script: a live activity feed (server-sent events), per-file timelines
// with unified and side-by-side diffs, rollback buttons and the guard view. Plain ES module, no
// build step. Everything is drawn with DOM text nodes (never innerHTML): paths and file content are
// data from agents, not markup. Its parts: console-dom.js (elements, times), console-labels.js (the
// words for an entry), console-diff.js (the diff tables), console-guard.js (the guard view).

import { el, stackedTime, timeCell } from './console-dom.js';
import { splitTable, unifiedTable } from './console-diff.js';
import { changeText, clientText, linesCell, outside } from './console-labels.js';
import { guardView } from './console-guard.js';

const $ = (id) => document.getElementById(id);
const state = { csrf: '', filters: {}, oldest: null, source: null, file: null, fileOldest: null, fileNewest: null, layout: 'unified', diffId: null, diffing: 0, drawing: 0 };

function notice(text) {
  const n = $('notice');
  n.textContent = text ?? '';
  n.hidden = !text;
}
function live(text) {
  $('live').textContent = text;
}
function fileStatus(text) {
  const s = $('file-status');
  s.textContent = text ?? '';
  s.hidden = !text;
}

async function api(path, init = {}) {
  const res = await fetch(path, { credentials: 'same-origin', ...init });
  if (res.status === 401) {
    location.reload();
    throw new Error('logged out');
  }
  if (!res.ok) throw new Error((await res.text()) || `${res.status} ${res.statusText}`);
  return res.json();
}
const post = (path, body) =>
  api(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hashline-csrf': state.csrf }, body: JSON.stringify(body ?? {}) });

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

const fileHref = (path) => `#/file/${encodeURIComponent(path)}`;

// ---- activity feed ----
const MAX_FEED_ROWS = 500;
const known = { clients: new Set(), tools: new Set() };
function remember(e) {
  for (const [set, value, list] of [[known.clients, e.client, 'clients'], [known.tools, e.tool, 'tools']]) {
    if (value && !set.has(value)) {
      set.add(value);
      $(list).append(el('option', { value }));
    }
  }
}

function feedRow(e) {
  remember(e);
  return el('tr', { 'data-id': e.id, 'data-path': e.path, class: outside(e) ? 'outside' : undefined },
    timeCell(e.time),
    el('td', { class: 'tool' }, e.tool ?? '-'),
    el('td', { class: 'client' }, clientText(e)),
    el('td', { class: 'path' }, el('a', { href: fileHref(e.path) }, e.path)),
    el('td', { class: 'change' }, changeText(e)),
    linesCell(e));
}

async function loadFeed(more = false) {
  const body = $('feed').tBodies[0];
  const page = await api(`/console/api/feed${query({ ...state.filters, before: more ? state.oldest : undefined, limit: 100 })}`);
  const rows = page.entries.map(feedRow);
  if (more) body.append(...rows);
  else body.replaceChildren(...rows);
  if (page.entries.length > 0) state.oldest = page.entries[page.entries.length - 1].id;
  $('feed-more').hidden = page.entries.length < 100;
  $('feed-empty').hidden = body.rows.length > 0;
  return page.newest;
}

function follow(after) {
  state.source?.close();
  const es = new EventSource(`/console/api/events${query({ ...state.filters, after })}`);
  state.source = es;
  es.addEventListener('ready', () => live('● live'));
  es.addEventListener('entries', (ev) => {
    const entries = JSON.parse(ev.data);
    const body = $('feed').tBodies[0];
    body.prepend(...entries.reverse().map(feedRow));
    // a long watch keeps the newest rows; older ones come back with "Load older"
    while (body.rows.length > MAX_FEED_ROWS) body.lastElementChild.remove();
    if (body.rows.length === MAX_FEED_ROWS) {
      state.oldest = Number(body.lastElementChild.dataset.id);
      $('feed-more').hidden = false;
    }
    $('feed-empty').hidden = body.rows.length > 0;
    if (state.file && entries.some((e) => e.path === state.file)) void loadTimeline();
  });
  es.addEventListener('failed', (ev) => notice(JSON.parse(ev.data).message));
  es.onerror = () => {
    live(es.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…');
    if (es.readyState === EventSource.CLOSED) setTimeout(() => void restartFeed(), 3000);
  };
}

async function restartFeed() {
  try {
    follow(await loadFeed());
  } catch (e) {
    notice(e.message);
  }
}

// ---- timeline and diffs ----
const FIRST_ROWS = 60;
const ROWS_PER_TASK = 250;
async function loadTimeline(more = false) {
  const path = state.file;
  const page = await api(`/console/api/timeline${query({ path, before: more ? state.fileOldest : undefined, limit: 1000 })}`);
  if (path !== state.file) return;
  $('file-path').textContent = page.path;
  $('file-note').textContent = page.readable ? '' : 'The read policy refuses this file: its versions are listed without content or diff.';
  const list = $('timeline');
  // a screenful first, the rest in later tasks (a file may have 1,000 versions), so the page shows
  // and answers at once; rows off screen are not laid out until scrolled to (content-visibility)
  const first = page.entries.slice(0, FIRST_ROWS).map(versionRow);
  if (!more) list.replaceChildren(...first);
  else list.append(...first);
  const token = ++state.drawing;
  for (let i = FIRST_ROWS; i < page.entries.length; i += ROWS_PER_TASK) {
    await new Promise((r) => setTimeout(r, 0));
    if (token !== state.drawing || path !== state.file) return;
    const fragment = document.createDocumentFragment();
    fragment.append(...page.entries.slice(i, i + ROWS_PER_TASK).map(versionRow));
    list.append(fragment);
  }
  if (page.entries.length > 0) state.fileOldest = page.entries[page.entries.length - 1].id;
  $('timeline-more').hidden = !page.more;
  if (!more && page.entries.length === 0) list.append(el('li', { class: 'muted empty' }, 'No versions of this path in the history.'));
  if (!more) followNewest(page.entries);
}

/**
 * The diff panel follows the newest version with a diff while no older one is chosen: when the
 * timeline opens, after a restore, and when a new version arrives.
 */
function followNewest(entries) {
  const newest = entries.find((e) => e.kind === 'text' && e.readable);
  const wasNewest = state.diffId === null || state.diffId === state.fileNewest;
  state.fileNewest = newest?.id ?? null;
  if (newest && wasNewest && state.diffId !== newest.id) void showDiff(newest.id);
}

/** One version as a list item whose parts line up in columns (the header row is visual only). */
function versionRow(e) {
  const content = e.kind !== null && e.readable;
  const actions = el('span', { class: 'actions' });
  if (content && e.kind === 'text') actions.append(el('button', { type: 'button', class: 'diff-btn', onclick: () => void showDiff(e.id), 'aria-label': `Diff of version ${e.id}` }, 'Diff'));
  else if (content) actions.append(el('span', { class: 'muted' }, 'binary: no diff'));
  // a read-blocked version has no tag shown, and is restorable all the same
  if (e.kind === 'text' && (e.tag || !e.readable)) actions.append(el('button', { type: 'button', class: 'restore-btn', onclick: () => void restore(e), 'aria-label': `Restore version ${e.id}${e.tag ? ` (${e.tag})` : ''}` }, 'Restore'));
  return el('li', { 'data-id': e.id, class: [state.diffId === e.id ? 'selected' : '', outside(e) ? 'outside' : ''].join(' ').trim() || undefined },
    el('span', {}, el('span', { class: 'sr-only' }, 'Version '), String(e.id)),
    stackedTime(e.time),
    el('span', { class: 'change' }, changeText(e, true)),
    outside(e)
      ? el('span', { class: 'by', title: `seen by ${e.tool ?? '-'}, ${clientText(e)}` }, el('span', { class: 'sr-only' }, 'by '), 'outside hashline', el('span', { class: 'sub' }, `seen by ${e.tool ?? '-'}`))
      : el('span', { class: 'by', title: clientText(e) }, el('span', { class: 'sr-only' }, 'by '), e.tool ?? '-', el('span', { class: 'sub' }, e.client ?? '-')),
    linesCell(e, 'span'),
    actions);
}

async function showDiff(id) {
  state.diffId = id;
  for (const row of $('timeline').children) row.classList.toggle('selected', row.dataset.id === String(id));
  const target = $('diff');
  const token = ++state.diffing;
  target.replaceChildren(el('p', { class: 'muted' }, 'Loading…'));
  try {
    const d = await api(`/console/api/diff${query({ id })}`);
    if (token !== state.diffing) return;
    state.lastDiff = d;
    drawDiff(d);
  } catch (e) {
    if (token === state.diffing) target.replaceChildren(el('p', { class: 'error' }, e.message));
  }
}

function drawDiff(d) {
  const target = $('diff');
  target.dataset.id = String(d.entry.id);
  const head = el('p', {}, `Version ${d.entry.id} (${changeText(d.entry)}) against `, d.predecessor ? `version ${d.predecessor.id} (${changeText(d.predecessor)})` : 'nothing before it');
  if (d.binary) return target.replaceChildren(head, el('p', { class: 'muted' }, 'Binary content: no diff.'));
  if (d.diff.tooComplex) return target.replaceChildren(head, el('p', { class: 'muted' }, 'The versions differ too much to diff here.'));
  if (d.diff.hunks.length === 0) return target.replaceChildren(head, el('p', { class: 'muted' }, 'No change in the text.'));
  const counts = el('p', {}, el('span', { class: 'add' }, `+${d.diff.added}`), ' ', el('span', { class: 'del' }, `−${d.diff.removed}`), d.diff.truncated ? ' (long diff: the rest is left out)' : '');
  target.replaceChildren(head, counts, state.layout === 'split' ? splitTable(d.diff.hunks) : unifiedTable(d.diff.hunks));
}

async function restore(e) {
  if (!confirm(`Restore ${e.path} to version ${e.id}${e.tag ? ` (${e.tag})` : ''}? The current content stays in the history.`)) return;
  try {
    const r = await post('/console/api/rollback', { id: e.id });
    fileStatus(`Restored ${r.path} to version ${e.id} (${r.file_hash})${r.warning ? `: ${r.warning}` : ''}.`);
    notice('');
    // the diff panel shows the restore (the new newest version) against what it replaced
    state.diffId = null;
    await loadTimeline();
  } catch (err) {
    notice(`Restore failed: ${err.message}`);
  }
}

// ---- guard ----
async function loadGuard() {
  $('guard').replaceChildren(...guardView(await api('/console/api/guard')));
}

// ---- navigation ----
function show(view) {
  for (const v of ['feed', 'file', 'guard']) $(`view-${v}`).hidden = v !== view;
  $('nav-feed').toggleAttribute('aria-current', view === 'feed');
  $('nav-guard').toggleAttribute('aria-current', view === 'guard');
}

async function route() {
  const hash = location.hash || '#/feed';
  try {
    if (hash.startsWith('#/file/')) {
      state.file = decodeURIComponent(hash.slice('#/file/'.length));
      state.diffId = null;
      state.fileNewest = null;
      state.lastDiff = null;
      fileStatus('');
      $('diff').replaceChildren(el('p', { class: 'muted' }, 'Choose “Diff” on a version to compare it with the one before.'));
      show('file');
      await loadTimeline();
    } else if (hash === '#/guard') {
      state.file = null;
      show('guard');
      await loadGuard();
    } else {
      state.file = null;
      show('feed');
    }
  } catch (e) {
    notice(e.message);
  }
}

async function start() {
  const s = await api('/console/api/session');
  state.csrf = s.csrf;
  $('root').textContent = s.root;
  $('logout').hidden = s.open;
  $('logout').addEventListener('click', async () => {
    await post('/console/logout');
    location.assign('/');
  });
  $('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    state.filters = { client: f.get('client').trim(), tool: f.get('tool').trim(), path: f.get('path').trim() };
    void restartFeed();
  });
  $('filters').addEventListener('reset', () => {
    state.filters = {};
    void restartFeed();
  });
  $('feed-more').addEventListener('click', () => void loadFeed(true).catch((e) => notice(e.message)));
  $('timeline-more').addEventListener('click', () => void loadTimeline(true).catch((e) => notice(e.message)));
  for (const r of document.querySelectorAll('input[name=layout]')) {
    r.addEventListener('change', () => {
      state.layout = r.value;
      if (state.lastDiff) drawDiff(state.lastDiff);
    });
  }
  window.addEventListener('hashchange', () => void route());
  if (!s.history.queryable) {
    notice(s.history.message);
    $('nav-feed').hidden = true;
    if (!location.hash.startsWith('#/guard')) location.hash = '#/guard';
    return route();
  }
  await Promise.all([route(), restartFeed()]);
}

start().catch((e) => notice(e.message));
