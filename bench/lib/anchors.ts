// Finds each anchor program, and installs the Debian ones when missing and running as root
// (`apt-get update` once, then `apt-get install -y`). A program that cannot be had is reported
// as missing and its workloads are listed as "anchor missing".

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface Anchors {
  openssl: string | null;
  tar: string | null;
  nginx: string | null;
  wrk: string | null;
  rg: string | null;
  astGrep: string | null;
  /** The reference MCP filesystem server's entry script (run with node). */
  referenceServer: string | null;
  autocannon: string | null;
}

const SBIN = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

function which(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), ...SBIN];
  for (const d of dirs) {
    const p = path.join(d, name);
    if (existsSync(p)) return p;
  }
  return null;
}

let aptUpdated = false;

function aptInstall(pkgs: string[], log: (s: string) => void): void {
  if (process.getuid?.() !== 0 || which('apt-get') === null) {
    log(`anchors: not root or no apt-get; cannot install ${pkgs.join(' ')}`);
    return;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log('anchors: apt-get update');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env, timeout: 300_000 });
    aptUpdated = true;
  }
  log(`anchors: apt-get install -y ${pkgs.join(' ')}`);
  spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: 'ignore', env, timeout: 600_000 });
}

export function findOrInstall(bin: string, pkgs: string[], log: (s: string) => void, accept?: (p: string) => boolean): string | null {
  const ok = (p: string | null) => p !== null && (accept === undefined || accept(p));
  let p = which(bin);
  if (ok(p)) return p;
  aptInstall(pkgs, log);
  p = which(bin);
  return ok(p) ? p : null;
}

function isGnuTar(p: string): boolean {
  try {
    return execFileSync(p, ['--version'], { encoding: 'utf8' }).includes('GNU tar');
  } catch {
    return false;
  }
}

function nodeBin(repo: string, rel: string): string | null {
  const p = path.join(repo, 'node_modules', rel);
  return existsSync(p) ? p : null;
}

export function findAnchors(repo: string, log: (s: string) => void): Anchors {
  return {
    openssl: findOrInstall('openssl', ['openssl'], log),
    tar: findOrInstall('tar', ['tar'], log, isGnuTar),
    nginx: findOrInstall('nginx', ['nginx-light'], log) ?? findOrInstall('nginx', ['nginx'], log),
    wrk: findOrInstall('wrk', ['wrk'], log),
    rg: findOrInstall('rg', ['ripgrep'], log),
    astGrep: nodeBin(repo, '.bin/ast-grep'),
    referenceServer: nodeBin(repo, '@modelcontextprotocol/server-filesystem/dist/index.js'),
    autocannon: nodeBin(repo, 'autocannon/autocannon.js'),
  };
}
