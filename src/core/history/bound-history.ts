// A history seen through one tool call: every record, re-anchor, rename and kept content carries the
// call's origin (tool, client, batch) unless the caller names one, so tools record as they always
// did and the log still says who changed what.

import type { HistoryOrigin, HistoryStore, RecordOptions } from './history-store.js';

export function withOrigin(store: HistoryStore, origin: HistoryOrigin): HistoryStore {
  const bound: HistoryStore = {
    get limits() {
      return store.limits;
    },
    get query() {
      return store.query;
    },
    recordable: (text) => store.recordable(text),
    record: (path, text, options: RecordOptions = {}) => store.record(path, text, { origin, ...options }),
    markSeen: (path, text, lines) => store.markSeen(path, text, lines),
    versions: (path) => store.versions(path),
    withTag: (path, tag) => store.withTag(path, tag),
    head: (path) => store.head(path),
    reanchor: (path, text, options = {}) => store.reanchor(path, text, { origin, ...options }),
    rename: (from, to, options = {}) => store.rename(from, to, { origin, ...options }),
    ...(store.renamedFrom ? { renamedFrom: (path: string) => store.renamedFrom!(path) } : {}),
    keep: (path, bytes, options) => store.keep(path, bytes, { origin, ...options }),
    load: (paths) => store.load(paths),
    flush: () => store.flush(),
    ...(store.flushSoon ? { flushSoon: () => store.flushSoon!() } : {}),
    close: () => store.close(),
    status: () => store.status(),
  };
  return bound;
}
