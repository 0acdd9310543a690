// `hashline history --stores | --prune | --forget`: the history stores under the state directory as
// a whole. --stores lists each store with the project it records; --prune applies retention
// (--older-than, --max-bytes) to the project's store, or with --stores to every store; --forget
// removes a project's store, saying first what it removes. Only store files under the state
// directory are read or removed. Exit 0 ok, 1 refused, 2 usage.

import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../core/errors/codes.js';
import { historyStoreFor, stateDirFor } from '../io/history/history-file.js';
import { pruneStore, readStore, removeStore, storeBytes, storeFiles, type StoreInfo } from '../io/history/store-catalog.js';
import { formatSize } from '../tools/navigation/fs-list.js';
import { usageError } from './usage.js';

export interface StoreFlags {
  readonly stores: boolean;
  readonly prune: boolean;
  readonly forget: boolean;
  readonly olderThan: string | undefined;
  readonly maxBytes: string | undefined;
  readonly json: boolean;
  /** --root, else the working directory: the project of --prune and --forget. */
  readonly root: string | undefined;
  /** --forget's PROJECT. */
  readonly project: string | undefined;
}

const UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const UNITS_BYTES: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** `30d`, `12h`, `2w`, `90m`, `45s` in milliseconds. */
export function parseAge(raw: string): number {
  const m = /^([1-9][0-9]*)([smhdw])$/.exec(raw);
  if (!m) throw usageError('history', `--older-than takes a count and a unit (s, m, h, d, w), e.g. 30d, not \`${raw}\``);
  return Number(m[1]) * UNITS_MS[m[2]!]!;
}

/** `500M`, `2G`, `100K`, `1048576` (bytes; K, M, G are powers of 1024; a trailing B or iB is allowed). */
export function parseBytes(raw: string): number {
  const m = /^([1-9][0-9]*)(?:([KMG])(?:i?B)?|B)?$/i.exec(raw);
  if (!m) throw usageError('history', `--max-bytes takes a size such as 500M or 2G, not \`${raw}\``);
  return Number(m[1]) * UNITS_BYTES[(m[2] ?? '').toUpperCase()]!;
}

function refuse(code: ErrorCode, message: string, asJson: boolean): void {
  if (asJson) process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  else process.stderr.write(`hashline: [${code}] ${message}\n`);
  process.exitCode = 1;
}

const versions = (n: number) => `${n} version${n === 1 ? '' : 's'}`;
const when = (t: number | null) => (t === null ? '-' : new Date(t).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'));

function projectOf(s: StoreInfo): string {
  return s.roots.map((r) => r.name).join(', ') || '(no project recorded)';
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

type Listed = StoreInfo | { file: string; error: string };

async function listed(files: readonly string[]): Promise<Listed[]> {
  const out: Listed[] = [];
  for (const file of files) {
    try {
      out.push(await readStore(file));
    } catch (e) {
      out.push({ file, error: (e as Error).message });
    }
  }
  return out;
}

function listStores(flags: StoreFlags): Promise<void> {
  return listed(storeFiles()).then((stores) => {
    const dir = stateDirFor();
    if (flags.json) {
      const rows = stores.map((s) =>
        'error' in s
          ? s
          : { project: projectOf(s), exists: s.roots.some((r) => existsSync(r.name)), file: s.file, bytes: s.bytes, versions: s.versions, newest: s.newest === null ? null : new Date(s.newest).toISOString() },
      );
      process.stdout.write(`${JSON.stringify({ stateDir: dir, stores: rows }, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${stores.length} history store${stores.length === 1 ? '' : 's'} in ${dir}\n`);
    for (const s of stores) {
      if ('error' in s) {
        process.stdout.write(`${path.basename(s.file)}  unreadable: ${s.error}\n`);
        continue;
      }
      const gone = s.roots.length > 0 && !s.roots.some((r) => existsSync(r.name)) ? ' (project folder gone)' : '';
      process.stdout.write(`${projectOf(s)}${gone}\n  ${path.basename(s.file)}  ${formatSize(s.bytes)}  ${versions(s.versions)}  newest ${when(s.newest)}\n`);
    }
  });
}

async function prune(flags: StoreFlags): Promise<void> {
  if (flags.olderThan === undefined && flags.maxBytes === undefined) throw usageError('history', '--prune needs --older-than AGE, --max-bytes SIZE or both');
  const retention = {
    maxAgeMs: flags.olderThan === undefined ? 0 : parseAge(flags.olderThan),
    maxVersionsPerFile: 0,
    maxBytes: flags.maxBytes === undefined ? 0 : parseBytes(flags.maxBytes),
  };
  let files: string[];
  if (flags.stores) files = storeFiles();
  else {
    const project = realOrResolved(flags.root ?? process.cwd());
    const file = historyStoreFor(project);
    if (!existsSync(file)) return refuse('not_found', `no history store for ${project} in ${stateDirFor()}`, flags.json);
    files = [file];
  }
  const results: Array<{ project: string; file: string; removed: number; bytes: number }> = [];
  for (const file of files) {
    const project = projectOf(await readStore(file));
    const removed = await pruneStore(file, retention);
    results.push({ project, file, removed, bytes: storeBytes(file) });
  }
  if (flags.json) process.stdout.write(`${JSON.stringify({ pruned: results }, null, 2)}\n`);
  else for (const r of results) process.stdout.write(`${r.project}: removed ${r.removed} entr${r.removed === 1 ? 'y' : 'ies'} (${path.basename(r.file)}, ${formatSize(r.bytes)})\n`);
}

async function forget(flags: StoreFlags): Promise<void> {
  const project = realOrResolved(flags.project ?? flags.root ?? process.cwd());
  const file = historyStoreFor(project);
  if (!existsSync(file)) return refuse('not_found', `no history store for ${project} in ${stateDirFor()} (hashline history --stores lists them)`, flags.json);
  const info = await readStore(file);
  if (!info.roots.some((r) => r.name === project)) return refuse('not_found', `no history store for ${project}: ${file} records ${projectOf(info)} (left as it is)`, flags.json);
  if (!flags.json) process.stdout.write(`forgetting ${project}: ${versions(info.versions)}, ${formatSize(info.bytes)}\n`);
  const removed = removeStore(file);
  if (flags.json) process.stdout.write(`${JSON.stringify({ forgot: project, removed }, null, 2)}\n`);
  else process.stdout.write(removed.map((f) => `removed ${f}\n`).join(''));
}

/** Runs --stores, --prune or --forget. */
export async function storesCommand(flags: StoreFlags): Promise<void> {
  if (flags.forget) return forget(flags);
  if (flags.prune) return prune(flags);
  return listStores(flags);
}
