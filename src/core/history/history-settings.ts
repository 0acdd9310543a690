// Where the history is kept and for how long: the `--history` flag over the configuration's
// `[history]` section, with every default filled in. Durable (SQLite) by default.

import type { ConfigDoc, HistoryStoreKind } from '../config/config-schema.js';
import { HashlineError } from '../errors/errors.js';
import { redactUrl } from './redact-url.js';

export interface HistorySettings {
  readonly store: HistoryStoreKind;
  /** The PostgreSQL URL when `store` is `postgres`. */
  readonly url?: string | undefined;
  readonly maxAgeDays: number;
  readonly maxVersionsPerFile: number;
  readonly maxBytes: number;
  readonly maxVersionBytes: number;
}

export const DEFAULT_HISTORY: HistorySettings = Object.freeze({
  store: 'sqlite',
  maxAgeDays: 90,
  maxVersionsPerFile: 1000,
  maxBytes: 1024 * 1024 * 1024,
  maxVersionBytes: 16 * 1024 * 1024,
});

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Reads `--history sqlite|memory|off|postgres://...`. */
export function parseHistoryFlag(value: string): { store: HistoryStoreKind; url?: string } {
  if (POSTGRES_URL.test(value)) return { store: 'postgres', url: value };
  if (value === 'sqlite' || value === 'memory' || value === 'off') return { store: value };
  // (a URL of another scheme may carry credentials too: it is shown redacted)
  const shown = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? redactUrl(value) : value;
  throw new HashlineError('invalid_arguments', `--history takes sqlite, memory, off or a postgres:// URL, not \`${shown}\``, {
    details: { flag: 'history', value: shown },
  });
}

export function resolveHistory(flag: string | undefined, doc: ConfigDoc['history']): HistorySettings {
  const h = doc ?? {};
  let store: HistoryStoreKind = h.store ?? (h.url !== undefined ? 'postgres' : h.persist === false ? 'memory' : DEFAULT_HISTORY.store);
  let url = h.url;
  if (flag !== undefined) {
    const f = parseHistoryFlag(flag);
    store = f.store;
    if (f.url !== undefined) url = f.url;
  }
  if (store === 'postgres' && url === undefined) {
    throw new HashlineError('config_invalid', 'the postgres history needs a URL: `--history postgres://...` or `[history] url`', { details: { key: 'history.url' } });
  }
  return Object.freeze({
    store,
    ...(store === 'postgres' ? { url } : {}),
    maxAgeDays: h.max_age_days ?? DEFAULT_HISTORY.maxAgeDays,
    maxVersionsPerFile: h.max_versions ?? DEFAULT_HISTORY.maxVersionsPerFile,
    maxBytes: h.max_bytes ?? DEFAULT_HISTORY.maxBytes,
    maxVersionBytes: h.max_version_bytes ?? DEFAULT_HISTORY.maxVersionBytes,
  });
}
