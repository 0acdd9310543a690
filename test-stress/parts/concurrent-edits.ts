// N MCP clients (each its own `hashline mcp` process, so its own session) edit the same files at
// once: read, wait a little, insert a unique marker line after a line they read. Afterwards every
// marker whose edit succeeded is in the file exactly once (no lost update), every refused marker
// is absent, and every refusal carries an error code.

import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CODES } from '../../src/core/errors/errors.js';
import { connect, listedTools, textOf, type Session } from '../lib/hashline.js';
import type { StressPlan } from '../lib/scale.js';

export interface ConcurrentEditsReport {
  notBuilt?: string;
  clients: number;
  attempts: number;
  applied: number;
  refused: number;
  uncoded: number;
  lost: number;
  duplicated: number;
  resurrected: number;
  codes: Record<string, number>;
  /** Whole reads refused while other clients were writing (retried). */
  readRefusals: Record<string, number>;
  uncodedSamples: string[];
}

const KNOWN = new Set(Object.keys(ERROR_CODES));

/** The error code of a refused call, wherever the result shape carries it; null when none. */
export function refusalCode(r: CallToolResult): string | null {
  const sc = (r.structuredContent ?? {}) as Record<string, unknown>;
  const err = sc.error as { code?: unknown } | undefined;
  if (typeof err?.code === 'string' && KNOWN.has(err.code)) return err.code;
  for (const k of ['code', 'cause_code', 'error_code']) {
    const v = sc[k];
    if (typeof v === 'string' && KNOWN.has(v)) return v;
  }
  const cause = sc.cause as unknown;
  const pools = [typeof cause === 'string' ? cause : JSON.stringify(cause ?? ''), textOf(r)];
  for (const s of pools) {
    for (const m of s.matchAll(/\[([a-z_]+)\]/g)) if (KNOWN.has(m[1]!)) return m[1]!;
    for (const m of s.matchAll(/"code"\s*:\s*"([a-z_]+)"/g)) if (KNOWN.has(m[1]!)) return m[1]!;
  }
  return null;
}

function tagOf(r: CallToolResult): { tag: string; lines: number } | null {
  const sc = r.structuredContent as { results?: { file_hash?: string; content?: string }[] } | undefined;
  const res = sc?.results?.[0];
  if (r.isError || !res?.file_hash) return null;
  const numbered = (res.content ?? '').split('\n').filter((l) => /^\d+\|/.test(l));
  // A whole read numbers the empty element after a trailing newline too (spec); it is no line to anchor on.
  const lines = numbered.length - (/^\d+\| ?$/.test(numbered[numbered.length - 1] ?? '') ? 1 : 0);
  return { tag: res.file_hash, lines };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function concurrentEdits(plan: StressPlan): Promise<ConcurrentEditsReport> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-stress-edit-')));
  const report: ConcurrentEditsReport = {
    clients: plan.clients,
    attempts: 0,
    applied: 0,
    refused: 0,
    uncoded: 0,
    lost: 0,
    duplicated: 0,
    resurrected: 0,
    codes: {},
    readRefusals: {},
    uncodedSamples: [],
  };
  try {
    const tools = await listedTools(base);
    const missing = ['fs_read', 'fs_edit'].filter((t) => !tools.has(t));
    if (missing.length) return { ...report, notBuilt: `${missing.join(', ')} not built yet` };
    const files = Array.from({ length: plan.sharedFiles }, (_, i) => `shared${i}.txt`);
    for (const f of files) {
      await fsp.writeFile(path.join(base, f), Array.from({ length: 40 }, (_, i) => `base line ${i + 1}`).join('\n') + '\n');
    }
    const sessions: Session[] = [];
    for (let c = 0; c < plan.clients; c++) sessions.push(await connect(base));
    const applied = new Map<string, string>();
    const refused = new Map<string, string>();
    try {
      await Promise.all(
        sessions.map(async (s, c) => {
          for (let r = 0; r < plan.rounds; r++) {
            const file = files[(c + r) % files.length]!;
            let read: { tag: string; lines: number } | null = null;
            for (let attempt = 0; attempt < 5 && read === null; attempt++) {
              const r = await s.call('fs_read', { targets: [{ path: file }] });
              read = tagOf(r);
              if (read === null) {
                const code = refusalCode(r) ?? (/changed between the check and the open/.test(textOf(r)) ? 'link_swapped (warning text)' : 'uncoded');
                report.readRefusals[code] = (report.readRefusals[code] ?? 0) + 1;
              }
            }
            if (read === null) continue;
            const { tag, lines } = read;
            await sleep(Math.floor(Math.random() * 8));
            const marker = `marker c${c} r${r}`;
            const anchor = 1 + Math.floor(Math.random() * Math.max(1, lines));
            const res = await s.call('fs_edit', { targets: [{ path: file, file_hash: tag, ops: `insert after ${anchor}:\n+${marker}` }] });
            report.attempts++;
            if (res.isError) {
              const code = refusalCode(res);
              refused.set(marker, file);
              if (code === null) {
                report.uncoded++;
                if (report.uncodedSamples.length < 3) report.uncodedSamples.push(textOf(res).slice(0, 200));
              } else report.codes[code] = (report.codes[code] ?? 0) + 1;
            } else applied.set(marker, file);
          }
        }),
      );
    } finally {
      await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    }
    report.applied = applied.size;
    report.refused = refused.size;
    const texts = new Map<string, string[]>();
    for (const f of files) texts.set(f, (await fsp.readFile(path.join(base, f), 'utf8')).split('\n'));
    const count = (f: string, m: string) => texts.get(f)!.filter((l) => l === m).length;
    for (const [m, f] of applied) {
      const n = count(f, m);
      if (n === 0) report.lost++;
      if (n > 1) report.duplicated++;
    }
    for (const [m, f] of refused) if (count(f, m) > 0) report.resurrected++;
    return report;
  } finally {
    await fsp.rm(base, { recursive: true, force: true });
  }
}
