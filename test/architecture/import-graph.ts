// The import graph of the repository's TypeScript, read from the sources: which file imports which
// (relative specifiers only, `import type` included), and the circles in it (Tarjan's strongly
// connected components). Shared by the layering and circle tests.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function filesUnder(dir: string, exts = ['.ts', '.mts']): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    if (e === 'node_modules' || e === 'fixtures' || e === 'work' || e === 'results') continue;
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, exts));
    else if (exts.some((x) => p.endsWith(x)) && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every module specifier of a file: static imports and re-exports, dynamic imports, side-effect imports. */
export function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (let m = re.exec(src); m; m = re.exec(src)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/** The file a relative specifier names (`./x.js` is the source `./x.ts`), or undefined. */
export function resolveSpecifier(from: string, spec: string, known: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const abs = path.resolve(path.dirname(from), spec);
  for (const c of [abs, abs.replace(/\.js$/, '.ts'), abs.replace(/\.mjs$/, '.mts')]) if (known.has(c)) return c;
  return undefined;
}

export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const g = new Map<string, string[]>();
  for (const f of files) {
    const targets = importsOf(f).map((s) => resolveSpecifier(f, s, known)).filter((t): t is string => t !== undefined);
    g.set(f, [...new Set(targets)]);
  }
  return g;
}

/** The strongly connected components with more than one file, or a file importing itself. */
export function circles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (g.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}
