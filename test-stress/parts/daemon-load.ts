// The daemon under load: `hashline serve` on loopback, autocannon (npm) with N connections for
// S seconds on GET /v1/fs/file (whole and windowed reads of a small file). Figures: requests,
// 5xx count, errors, and RSS sampled each second (memory flat: the last quarter's median within
// 25% or 32 MiB of the first quarter's, after a warm-up).

import { spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDaemon } from '../lib/daemon.js';
import { REPO, serveBuilt } from '../lib/hashline.js';
import type { StressPlan } from '../lib/scale.js';

export interface DaemonLoadReport {
  notBuilt?: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  errors: number;
  rssStartMiB: number;
  rssEndMiB: number;
  rssPeakMiB: number;
  memoryFlat: boolean;
}

function rssMiB(pid: number): number {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(s)?.[1] ?? NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

export async function daemonLoad(plan: StressPlan): Promise<DaemonLoadReport> {
  const report: DaemonLoadReport = {
    connections: plan.loadConnections,
    seconds: plan.loadSeconds,
    requests: 0,
    rps: 0,
    status2xx: 0,
    status4xx: 0,
    status5xx: 0,
    errors: 0,
    rssStartMiB: 0,
    rssEndMiB: 0,
    rssPeakMiB: 0,
    memoryFlat: false,
  };
  if (!serveBuilt()) return { ...report, notBuilt: '`hashline serve` not built yet' };
  const root = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-stress-load-')));
  await fsp.writeFile(path.join(root, 'small.txt'), Array.from({ length: 100 }, (_, i) => `line ${i + 1} of the load test file`).join('\n') + '\n');
  const d = await startDaemon(root);
  try {
    const samples: number[] = [];
    const timer = setInterval(() => samples.push(rssMiB(d.pid)), 1000);
    const out = await new Promise<string>((resolve, reject) => {
      const args = [
        path.join(REPO, 'node_modules/autocannon/autocannon.js'),
        '-c', String(plan.loadConnections),
        '-d', String(plan.loadSeconds),
        '-j',
        '-H', `authorization=${d.headers.authorization}`,
        `${d.url}/v1/fs/file?path=small.txt&start_line=10&end_line=40`,
      ];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let so = '';
      child.stdout.on('data', (c: Buffer) => (so += c.toString()));
      const kill = setTimeout(() => child.kill('SIGKILL'), (plan.loadSeconds + 60) * 1000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(kill);
        if (code === 0) resolve(so);
        else reject(new Error(`autocannon exited ${code}`));
      });
    });
    clearInterval(timer);
    const j = JSON.parse(out) as Record<string, unknown> & { requests: { total: number; average: number }; errors: number; timeouts: number };
    report.requests = j.requests.total;
    report.rps = j.requests.average;
    report.status2xx = Number(j['2xx'] ?? 0);
    report.status4xx = Number(j['4xx'] ?? 0);
    report.status5xx = Number(j['5xx'] ?? 0);
    report.errors = Number(j.errors ?? 0) + Number(j.timeouts ?? 0);
    const warm = samples.slice(Math.min(5, Math.floor(samples.length / 4)));
    const q = Math.max(1, Math.floor(warm.length / 4));
    report.rssStartMiB = median(warm.slice(0, q));
    report.rssEndMiB = median(warm.slice(-q));
    report.rssPeakMiB = Math.max(...samples.filter((x) => !Number.isNaN(x)), 0);
    report.memoryFlat = report.rssEndMiB <= Math.max(report.rssStartMiB * 1.25, report.rssStartMiB + 32);
    return report;
  } finally {
    await d.stop();
    await fsp.rm(root, { recursive: true, force: true });
  }
}
