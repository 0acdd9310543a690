// A hand-written SVG chart of the ratios: one bar per measured row, on a log scale centred on
// parity (1×), with the goal marked. "Better" always points right: for lower-is-better figures
// the bar shows anchor / hashline, so every bar reads as "how many times better than the anchor".

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Machine } from './report.js';
import type { Row } from './types.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Advantage over the anchor (> 1 is better) and the goal on the same scale. */
function advantage(r: Row): { adv: number; goal: number } | null {
  if (r.goal.kind !== 'ratio' || r.ratio === undefined || r.ratio <= 0) return null;
  return r.direction === 'higher' ? { adv: r.ratio, goal: r.goal.value } : { adv: 1 / r.ratio, goal: 1 / r.goal.value };
}

export function chartSvg(rows: Row[], m: Machine): string {
  const ratioRows = rows.filter((r) => r.goal.kind === 'ratio');
  const absRows = rows.filter((r) => r.goal.kind === 'absolute');
  const W = 900;
  const labelW = 360;
  const barH = 22;
  const top = 50;
  const chartH = top + ratioRows.length * (barH + 8) + 40;
  const H = chartH + (absRows.length ? 30 + absRows.length * 18 : 0);
  const min = 0.05;
  const max = 20;
  const span = W - labelW - 30;
  const x = (v: number) => labelW + ((Math.log10(Math.min(max, Math.max(min, v))) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))) * span;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="10" y="20" font-size="14" font-weight="bold">hashline vs anchors: times better than the anchor (log scale; right is better)</text>`);
  out.push(`<text x="10" y="38" fill="#555">${esc(`${m.date.slice(0, 10)}, ${m.cores} cores, ${m.memoryGiB} GiB, node ${m.node}. Bar: hashline; tick: goal. Grey: not measured.`)}</text>`);
  for (const t of [0.1, 0.25, 0.5, 1, 2, 4, 10]) {
    out.push(`<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${chartH - 30}" stroke="${t === 1 ? '#333' : '#ddd'}"/>`);
    out.push(`<text x="${x(t)}" y="${chartH - 16}" text-anchor="middle" fill="#555">${t}×</text>`);
  }
  ratioRows.forEach((r, i) => {
    const y = top + i * (barH + 8);
    out.push(`<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${esc(r.title.length > 58 ? `${r.title.slice(0, 57)}…` : r.title)}</text>`);
    const a = advantage(r);
    if (!a) {
      out.push(`<rect x="${x(1) - 40}" y="${y}" width="80" height="${barH}" fill="#eee"/>`);
      out.push(`<text x="${x(1)}" y="${y + 15}" text-anchor="middle" fill="#777">${esc(r.status)}</text>`);
      return;
    }
    const x0 = Math.min(x(1), x(a.adv));
    const w = Math.max(1, Math.abs(x(a.adv) - x(1)));
    out.push(`<rect x="${x0}" y="${y}" width="${w}" height="${barH}" fill="${r.met ? '#3a9d5d' : '#d0453a'}"/>`);
    out.push(`<line x1="${x(a.goal)}" y1="${y - 2}" x2="${x(a.goal)}" y2="${y + barH + 2}" stroke="#000" stroke-width="2"/>`);
    out.push(`<text x="${Math.max(x0 + w, x(1)) + 4}" y="${y + 15}">${a.adv.toFixed(2)}×</text>`);
  });
  if (absRows.length) out.push(`<text x="10" y="${chartH + 12}" font-weight="bold">Absolute goals</text>`);
  absRows.forEach((r, i) => {
    const y = chartH + 32 + i * 18;
    const v = r.hashline === undefined ? r.status : `${r.hashline.toFixed(r.hashline >= 100 ? 0 : 2)}${r.unit === '×' ? '×' : ` ${r.unit}`}`;
    const met = r.status !== 'measured' ? r.status : r.met ? 'met' : 'not met';
    out.push(`<text x="10" y="${y}">${esc(`${r.title}: ${v} (goal ${r.goal.text}) `)}<tspan fill="${r.met ? '#3a9d5d' : '#d0453a'}" font-weight="bold">${esc(met)}</tspan></text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

export function writeSvg(dir: string, rows: Row[], m: Machine): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'latest.svg');
  writeFileSync(file, chartSvg(rows, m));
  return file;
}
