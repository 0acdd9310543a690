// The results table (text and Markdown) and bench/results/latest.json.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './types.js';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

export function machine(): Machine {
  return {
    date: new Date().toISOString(),
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

function fmt(x: number | undefined, unit: string): string {
  if (x === undefined || Number.isNaN(x)) return '—';
  const v = Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2);
  return unit === '×' ? `${v}×` : `${v} ${unit}`;
}

/** The goal column: the goal against the anchor and the one against the floor. */
function goalText(r: Row): string {
  const own = r.goal.bound === 'report' ? '' : `${r.goal.text}${r.goal.kind === 'ratio' && r.floor?.goal ? ' peer' : ''}`;
  const floor = r.floor?.goal ? `${r.floor.goal.text} floor` : '';
  return [own, floor].filter(Boolean).join(', ') || 'report';
}

function metText(r: Row): string {
  if (r.status !== 'measured') return r.status;
  if (r.met === undefined) return '—';
  if (r.met) return 'met';
  return r.goalBeyondFloor ? 'NOT met (goal beyond floor)' : 'NOT met';
}

export function cells(r: Row): string[] {
  const floor = r.floor;
  return [
    r.title,
    fmt(r.hashline, r.unit),
    r.anchor === undefined ? r.anchorName : `${fmt(r.anchor, r.unit)} (${r.anchorName})`,
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)}×`,
    floor?.value === undefined ? '—' : fmt(floor.value, r.unit),
    floor?.ratio === undefined ? '—' : `${floor.ratio.toFixed(2)}×`,
    goalText(r),
    metText(r),
  ];
}

const HEAD = ['workload', 'hashline median', 'anchor median', '÷ anchor', 'floor', '÷ floor', 'goal', 'met'];

/** A row's note, led by what its floor is. */
function noteOf(r: Row): string {
  const floor = r.floor ? `floor: ${r.floor.name}${r.floor.value === undefined ? ' (not measured)' : ''}` : '';
  return [floor, r.note ?? ''].filter(Boolean).join('; ');
}

export function textTable(rows: Row[]): string {
  const all = [HEAD, ...rows.map(cells)];
  const widths = HEAD.map((_, c) => Math.max(...all.map((r) => [...r[c]!].length)));
  const line = (r: string[]) => r.map((x, c) => x.padEnd(widths[c]!)).join('  ');
  const notes = rows.filter((r) => r.note || r.floor).map((r) => `  ${r.id}: ${noteOf(r)}`);
  return [line(HEAD), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => line(cells(r))), '', 'notes:', ...notes].join('\n');
}

export function markdownTable(rows: Row[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${HEAD.join(' | ')} |`,
    `|${HEAD.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${cells(r).map(esc).join(' | ')} |`),
  ].join('\n');
}

export function writeMarkdown(dir: string, rows: Row[], m: Machine, quick: boolean): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.md');
  const notes = rows.filter((r) => r.note || r.floor).map((r) => `- \`${r.id}\`: ${noteOf(r)}`);
  const head = `Measured ${m.date}${quick ? ' (quick mode)' : ''} on ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, node ${m.node}, ${m.platform}.`;
  writeFileSync(file, `${head}\n\n${markdownTable(rows)}\n\nNotes:\n\n${notes.join('\n')}\n`);
  return file;
}

export function writeJson(dir: string, rows: Row[], m: Machine, quick: boolean): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.json');
  writeFileSync(file, `${JSON.stringify({ machine: m, quick, rows }, null, 2)}\n`);
  return file;
}

const BEGIN = '<!-- bench:begin (written by `npm run bench -- --doc`) -->';
const END = '<!-- bench:end -->';

/** Replaces the text between the bench markers of `doc` with the Markdown table file `md`. */
export function updateDoc(doc: string, md: string): void {
  const text = readFileSync(doc, 'utf8');
  const a = text.indexOf(BEGIN);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${doc} has no bench markers`);
  writeFileSync(doc, `${text.slice(0, a + BEGIN.length)}\n${readFileSync(md, 'utf8').trim()}\n${text.slice(b)}`);
}
