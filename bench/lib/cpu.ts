// CPU time (user + system, all threads) of processes, for figures that say how much of the
// machine a side used, not only how long it took: this process, a process by pid (a server the
// bench spawned), and this process's waited-for children (a command run to completion).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let tick: number | undefined;
/** Milliseconds per clock tick of /proc/<pid>/stat. */
function msPerTick(): number {
  tick ??= 1000 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);
  return tick;
}

/** Fields of /proc/<pid>/stat after the command name (field 3 is index 0). */
function statFields(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** CPU ms of this process so far (every thread). */
export function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms of a running process so far (every thread), or NaN when it is gone. */
export function processCpuMs(pid: number | null): number {
  if (pid === null) return NaN;
  try {
    const f = statFields(pid);
    return (Number(f[11]) + Number(f[12])) * msPerTick();
  } catch {
    return NaN;
  }
}

/** CPU ms of this process's children that have exited and been waited for. */
export function childrenCpuMs(): number {
  const f = statFields('self');
  return (Number(f[13]) + Number(f[14])) * msPerTick();
}
