// Who owns a lock file, and whether that owner still runs. A lock records its owner as
//
//   <pid>
//   start=<process start time, clock ticks since boot: field 22 of /proc/<pid>/stat>
//   boot=<the kernel's boot id>
//   pidns=<the owner's pid namespace>
//   target=<the locked file, relative to the directory holding the lock>
//
// A pid alone cannot tell its owner from an unrelated process that was given the same pid later;
// pid + start time + boot id can. That check is only possible for an owner in this process's own
// pid namespace on this boot: an owner anywhere else (another container, another host sharing the
// tree, a boot before this one), or one whose /proc entry this process may not read, is `unknown`,
// and the caller falls back to the lock's heartbeat (the holder refreshes its mtime; see
// file-lock.ts).

import { readFileSync, readlinkSync } from 'node:fs';

export interface OwnerRecord {
  pid: number;
  start?: string | undefined;
  boot?: string | undefined;
  pidns?: string | undefined;
  target?: string | undefined;
}

export type OwnerState = 'alive' | 'dead' | 'unknown';

interface Self {
  pid: number;
  /** Undefined where the start time cannot be read (no /proc, or a /proc of another pid namespace). */
  start: string | undefined;
  boot: string | undefined;
  pidns: string | undefined;
}

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(text: string): string[] | undefined {
  const close = text.lastIndexOf(')');
  return close === -1 ? undefined : text.slice(close + 2).split(' ');
}

/** [state, start time] of a /proc/<pid>/stat text. */
function stateAndStart(text: string): [string, string] | undefined {
  const f = statFields(text);
  // fields from 3 on: state is field 3, start time field 22
  return f && f.length > 19 ? [f[0]!, f[19]!] : undefined;
}

let self: Self | undefined;

/** This process's identity, read once. */
export function selfIdentity(): Self {
  if (self) return self;
  const stat = readOr('/proc/self/stat');
  // /proc/self is the pid of this process in the pid namespace /proc was mounted for: when that is
  // not our own (process.pid differs), start times read there cannot be matched to recorded pids
  const samePidView = stat !== undefined && Number.parseInt(stat, 10) === process.pid;
  let pidns: string | undefined;
  try {
    pidns = readlinkSync('/proc/self/ns/pid');
  } catch {
    pidns = undefined;
  }
  self = {
    pid: process.pid,
    start: samePidView ? stateAndStart(stat)?.[1] : undefined,
    boot: readOr('/proc/sys/kernel/random/boot_id')?.trim() || undefined,
    pidns,
  };
  return self;
}

/** The text of a lock owned by this process, for the file at `target` (relative to the lock's directory). */
export function ownerText(target: string): string {
  const me = selfIdentity();
  let text = `${me.pid}\n`;
  if (me.start !== undefined) text += `start=${me.start}\n`;
  if (me.boot !== undefined) text += `boot=${me.boot}\n`;
  if (me.pidns !== undefined) text += `pidns=${me.pidns}\n`;
  return `${text}target=${target}\n`;
}

/** Parses a lock's text; null when it names no pid (a foreign or damaged file). */
export function parseOwner(text: string): OwnerRecord | null {
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !/^\d+$/.test(lines[0] ?? '')) return null;
  const out: OwnerRecord = { pid };
  for (const line of lines.slice(1)) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === 'start' || key === 'boot' || key === 'pidns' || key === 'target') out[key] = value;
  }
  return out;
}

function signalProbe(pid: number): 'gone' | 'exists' {
  try {
    process.kill(pid, 0);
    return 'exists';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'exists';
  }
}

/**
 * Whether the owner a record names runs now: `dead` when its pid is gone, is a zombie, or belongs
 * to a process started at another time (the pid was reused); `alive` when the same process runs;
 * `unknown` when this process cannot tell (see the header).
 */
export function ownerState(rec: OwnerRecord): OwnerState {
  const me = selfIdentity();
  if (me.start === undefined || me.boot === undefined || rec.start === undefined || rec.boot !== me.boot || rec.pidns !== me.pidns) {
    return 'unknown';
  }
  if (rec.pid === me.pid) return rec.start === me.start ? 'alive' : 'dead';
  const text = readOr(`/proc/${rec.pid}/stat`);
  if (text === undefined) {
    // gone, or hidden from this user (hidepid): only a failed signal says gone
    return signalProbe(rec.pid) === 'gone' ? 'dead' : 'unknown';
  }
  const st = stateAndStart(text);
  if (st === undefined) return 'unknown';
  const [state, start] = st;
  if (state === 'Z' || state === 'X') return 'dead';
  return start === rec.start ? 'alive' : 'dead';
}
