// The fuzz targets: each loads its module (null while that part has not landed), and gives an
// arbitrary input generator and a function to run on each input. A target function may throw
// HashlineError (a coded refusal); anything else it throws is a crash. `invariant` failures are
// thrown as plain Errors, so they count as crashes too.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { REPO } from '../lib/hashline.js';

export interface FuzzTarget {
  name: string;
  /** The module(s) it needs; missing ones make the target "not built". */
  modules: string[];
  load(): Promise<{ arb: fc.Arbitrary<unknown>; run(input: unknown): void }>;
}

async function mod<T>(rel: string): Promise<T> {
  return (await import(pathToFileURL(path.join(REPO, rel)).href)) as T;
}

export function missingModules(t: FuzzTarget): string[] {
  return t.modules.filter((m) => !existsSync(path.join(REPO, m)));
}

const num = fc.oneof(
  fc.nat(60).map(String),
  fc.constantFrom('0', '00', '4294967295', '4294967296', '99999999999999999999', '-1', '1e3', '0x10', ' 3', '3 ', '+4', '٣'),
);
const sep = fc.constantFrom('..', '-', '…', ' .. ', '...', '.', ',', '', ' - ', '–');
const colon = fc.constantFrom(':', '', ' :', '::');
const text = fc.string({ maxLength: 20, unit: 'grapheme-ascii' });
const dslLine = fc.oneof(
  fc.tuple(fc.constantFrom('replace', 'delete', 'replace block', 'delete block', 'REPLACE', 'Delete'), num, fc.option(fc.tuple(sep, num)), colon).map(
    ([h, a, r, c]) => `${h} ${a}${r ? `${r[0]}${r[1]}` : ''}${c}`,
  ),
  fc.tuple(fc.constantFrom('insert before', 'insert after', 'insert  after', 'insert'), num, colon).map(([h, a, c]) => `${h} ${a}${c}`),
  fc.tuple(fc.constantFrom('insert head', 'insert tail', 'insert HEAD'), colon).map(([h, c]) => `${h}${c}`),
  fc.tuple(fc.constantFrom('+', '-', ' ', '', '++', '+-'), text).map(([p, t]) => `${p}${t}`),
  fc.constantFrom('*** Begin Patch', '*** End Patch', '*** Abort', '*** Update File: a.ts', '@@ -1,2 +1,3 @@', '# comment', '', '\r', '\uFEFF', '\uD800'),
  num,
  fc.tuple(num, sep, num).map(([a, s, b]) => `${a}${s}${b}`),
  fc.string({ maxLength: 30, unit: 'binary' }),
);

/** Mostly well-formed hunks, so the planner and the applier see real work too. */
const line1 = fc.integer({ min: 1, max: 45 });
const row = text.map((t) => `+${t}`);
const wellFormed = fc
  .array(
    fc.oneof(
      fc.tuple(line1, fc.nat(4), fc.array(row, { minLength: 1, maxLength: 3 })).map(([a, d, rows]) => [`replace ${a}..${a + d}:`, ...rows]),
      fc.tuple(line1, fc.nat(3)).map(([a, d]) => [d ? `delete ${a}-${a + d}` : `delete ${a}`]),
      fc.tuple(fc.constantFrom('before', 'after'), line1, fc.array(row, { minLength: 1, maxLength: 3 })).map(([w, a, rows]) => [`insert ${w} ${a}:`, ...rows]),
      fc.tuple(fc.constantFrom('head', 'tail'), fc.array(row, { minLength: 1, maxLength: 2 })).map(([w, rows]) => [`insert ${w}:`, ...rows]),
    ),
    { maxLength: 6 },
  )
  .map((hunks) => hunks.flat());

export const dslTarget: FuzzTarget = {
  name: 'edit DSL parser (parse, plan, apply)',
  modules: ['src/core/edit/parse.ts', 'src/core/edit/plan.ts', 'src/core/edit/apply.ts'],
  async load() {
    const { parseEditOps } = await mod<typeof import('../../src/core/edit/parse.js')>('src/core/edit/parse.ts');
    const { resolvePlan } = await mod<typeof import('../../src/core/edit/plan.js')>('src/core/edit/plan.ts');
    const { applyHunks, piecesToLines } = await mod<typeof import('../../src/core/edit/apply.js')>('src/core/edit/apply.ts');
    return {
      arb: fc.tuple(fc.oneof(fc.array(dslLine, { maxLength: 12 }), wellFormed), fc.constantFrom('\n', '\r\n'), fc.nat(40)),
      run(input) {
        const [lines, eol, count] = input as [string[], string, number];
        const plan = parseEditOps(lines.join(eol));
        const file = Array.from({ length: count }, (_, i) => `line ${i + 1}`);
        const hunks = resolvePlan(plan.ops, { lineCount: count, text: file.length ? `${file.join('\n')}\n` : '' });
        const out = piecesToLines(file, applyHunks(file, hunks));
        if (!Array.isArray(out)) throw new Error('invariant: apply did not give lines');
      },
    };
  },
};

const bound = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.nat().map(String),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 1 << 30 }),
  fc.double(),
  fc.bigInt({ min: -5n, max: 1n << 70n }),
  fc.constantFrom('0', '', ' 1', '1 ', '+1', '-0', '1.0', '18446744073709551615', '18446744073709551616', '٣'),
);

export const rangeTarget: FuzzTarget = {
  name: 'range rule (lineWindow, sliceLines, parseLineRange)',
  modules: ['src/core/read/line-window.ts', 'src/core/read/line-range.ts'],
  async load() {
    const { lineWindow, sliceLines } = await mod<typeof import('../../src/core/read/line-window.js')>('src/core/read/line-window.ts');
    const { parseLineRange } = await mod<typeof import('../../src/core/read/line-range.js')>('src/core/read/line-range.ts');
    const rangeText = fc.array(fc.tuple(num, fc.constantFrom('-', '', '--', ' - ', '..'), fc.option(num)), { maxLength: 4 }).map((parts) =>
      parts.map(([a, s, b]) => `${a}${s}${b ?? ''}`).join(','),
    );
    return {
      arb: fc.tuple(fc.option(fc.constantFrom('a.txt', '', '/x')), bound, bound, fc.uint8Array({ maxLength: 64 }), fc.oneof(rangeText, fc.string({ maxLength: 20 }))),
      run(input) {
        const [p, start, end, bytes, range] = input as [string | null, never, never, Uint8Array, string];
        const w = lineWindow({ path: p, start_line: start, end_line: end });
        if (w.ok && w.window) {
          if (!(w.window.start >= 1) || (w.window.end !== undefined && w.window.end < w.window.start)) throw new Error('invariant: window out of order');
          const cut = sliceLines(bytes, w.window);
          if (cut.length > bytes.length) throw new Error('invariant: slice longer than input');
        }
        parseLineRange(range);
      },
    };
  },
};

const segment = fc.oneof(
  fc.constantFrom('..', '.', '', 'a', 'b', 'root', 'blocked', 'allowed', '~', 'x\\y', 'C:', '\0', '\n', 'ü', '%2e%2e', '...', ' '),
  fc.string({ maxLength: 6 }),
);

export const guardTarget: FuzzTarget = {
  name: 'path guard, lexical half (assertPathForm, normalizeLexical, decide)',
  modules: ['src/core/config/path-policy.ts'],
  async load() {
    const { assertPathForm, normalizeLexical, decide } = await mod<typeof import('../../src/core/config/path-policy.js')>('src/core/config/path-policy.ts');
    const config = { root: '/r/root', allow: ['/r/allowed/file'], block: ['/r/root/blocked'], readAllow: undefined, readBlock: undefined };
    const pathArb = fc.oneof(
      fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 8 })).map(([abs, segs]) => `${abs ? '/' : ''}${segs.join('/')}`),
      fc.string({ maxLength: 40, unit: 'binary' }),
      fc.string({ maxLength: 5000 }).filter((s) => s.length > 4000 || s.length < 10),
    );
    return {
      arb: fc.tuple(pathArb, fc.constantFrom('read', 'write') as fc.Arbitrary<'read' | 'write'>),
      run(input) {
        const [p, scope] = input as [string, 'read' | 'write'];
        assertPathForm(p);
        const abs = normalizeLexical(p, config.root);
        if (!abs.startsWith('/') || /(^|\/)\.\.?(\/|$)/.test(abs) || abs.includes('//')) throw new Error(`invariant: not normal: ${abs}`);
        const v = decide(abs, config, scope);
        if (!['allowed', 'denied', 'conflict'].includes(v.kind)) throw new Error('invariant: unknown verdict');
        if (v.kind === 'allowed' && !v.allowListed && !(abs === config.root || abs.startsWith(`${config.root}/`))) throw new Error(`invariant: outside allowed: ${abs}`);
      },
    };
  },
};

export const FUZZ_TARGETS = [dslTarget, rangeTarget, guardTarget];
