// The workloads' inputs, generated under bench/work/ (gitignored) and reused while their
// parameters match: source trees, a text file of N lines, a large file, a set of random files.

import { randomFillSync } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

function cached(dir: string, params: string, build: () => void): string {
  const mark = path.join(dir, `.complete-${VERSION}`);
  if (existsSync(mark) && readFileSync(mark, 'utf8') === params) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  build();
  writeFileSync(mark, params);
  return dir;
}

/** The symbol the lookup workload searches for: defined in a few files, called from more. */
export const SYMBOL = 'resolveWidgetTarget';
/** The rewrite workload's pattern and template. */
export const REWRITE = { pat: 'console.log($A)', out: 'logger.info($A)' };

/** One TypeScript module of about 45 lines; `i` varies names so files differ. */
export function sourceFile(i: number, total: number): string {
  const defines = i % Math.max(1, Math.floor(total / 3)) === 7;
  const calls = i % 97 === 3;
  return `// Module ${i}: generated for the hashline benchmarks.
import { logger } from '../logger';

export interface Shape${i} {
  id: number;
  name: string;
  tags: string[];
}

export function compute${i}(a: number, b: number): number {
  const sum = a + b;
  console.log(sum);
  return sum * ${i % 13};
}

export class Service${i} {
  private readonly cache = new Map<string, Shape${i}>();

  get(key: string): Shape${i} | undefined {
    return this.cache.get(key);
  }

  put(shape: Shape${i}): void {
    console.log(\`put \${shape.id}\`);
    this.cache.set(shape.name, shape);
  }
}
${defines ? `\nexport function ${SYMBOL}(id: number): string {\n  return \`widget-\${id}\`;\n}\n` : ''}${calls ? `\nexport const target${i} = ${SYMBOL}(${i});\n` : ''}
export const label${i} = 'module-${i}';
export const values${i} = [${i}, ${i + 1}, ${i + 2}];

export default function main${i}(): void {
  const s = new Service${i}();
  s.put({ id: ${i}, name: 'n${i}', tags: [] });
  logger.info(compute${i}(1, 2));
}
`;
}

/** One TypeScript file of `parts` modules as sourceFile makes them (one import, one default export). */
export function sourceModules(i: number, total: number, parts: number): string {
  if (parts === 1) return sourceFile(i, total);
  let out = '';
  for (let k = 0; k < parts; k++) {
    const m = sourceFile(i * parts + k, total * parts);
    out += k === 0 ? m : m.replace(/^import .*\n/m, '').replace('export default function', 'export function');
  }
  return out;
}

/** A tree of `n` TypeScript files of `parts` modules each (about 45 lines a module), in folders of 100. */
export function sourceTree(work: string, n: number, parts = 1): string {
  const dir = path.join(work, parts === 1 ? `tree-${n}` : `tree-${n}x${parts}`);
  return cached(dir, parts === 1 ? `tree ${n}` : `tree ${n} x ${parts}`, () => {
    for (let i = 0; i < n; i++) {
      const sub = path.join(dir, `pkg${String(Math.floor(i / 100)).padStart(3, '0')}`);
      if (i % 100 === 0) mkdirSync(sub, { recursive: true });
      writeFileSync(path.join(sub, `mod${i}.ts`), sourceModules(i, n, parts));
    }
  });
}

/** A line of text `i` for line-addressed files: unique, about 60 characters. */
export function textLine(i: number, salt = ''): string {
  return `  const value_${i} = compute(${i}, "${salt}line ${i} of the benchmark file");`;
}

export function linesText(n: number, salt = ''): string {
  const out: string[] = [];
  for (let i = 1; i <= n; i++) out.push(textLine(i, salt));
  return `${out.join('\n')}\n`;
}

/** A file of `bytes` bytes made of 64-byte lines, written in 4 MiB blocks. */
export function bigFile(work: string, bytes: number): { file: string; lines: number } {
  const dir = path.join(work, `big-${bytes}`);
  const file = path.join(dir, 'big.txt');
  cached(dir, `big ${bytes}`, () => {
    const line = `${'x'.repeat(52)} 0123456789\n`; // 64 bytes
    const block = Buffer.from(line.repeat((4 * 1024 * 1024) / 64));
    const fd = openSync(file, 'w');
    try {
      for (let left = bytes; left > 0; left -= block.length) writeSync(fd, block, 0, Math.min(left, block.length));
    } finally {
      closeSync(fd);
    }
  });
  return { file, lines: Math.floor(bytes / 64) };
}

/** `count` files of `size` random bytes. */
export function randomFiles(work: string, count: number, size: number): { dir: string; names: string[] } {
  const dir = path.join(work, `random-${count}x${size}`);
  const names = Array.from({ length: count }, (_, i) => `blob${String(i).padStart(3, '0')}.bin`);
  cached(dir, `random ${count} ${size}`, () => {
    const buf = Buffer.allocUnsafe(size);
    for (const n of names) writeFileSync(path.join(dir, n), randomFillSync(buf));
  });
  return { dir, names };
}
