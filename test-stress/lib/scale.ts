// How hard each stress part pushes: `full` for `npm run test:stress`, `short` (seconds) for the
// copy inside `npm test`. STRESS_SCALE=short|full overrides the default of the caller.

export type Scale = 'full' | 'short';

export interface StressPlan {
  scale: Scale;
  /** Concurrent MCP clients editing the same files, and edits each makes. */
  clients: number;
  rounds: number;
  /** Files the clients share. */
  sharedFiles: number;
  killTrials: number;
  fuzzCases: number;
  /** A single fuzz case slower than this counts as a hang. */
  fuzzCaseLimitMs: number;
  loadConnections: number;
  loadSeconds: number;
  /** Boundary writers doing read-hash-write loops on the same files, for this long. */
  casWriters: number;
  casFiles: number;
  casSeconds: number;
}

export function stressPlan(defaultScale: Scale): StressPlan {
  const env = process.env.STRESS_SCALE;
  const scale: Scale = env === 'short' || env === 'small' ? 'short' : env === 'full' ? 'full' : defaultScale;
  return scale === 'full'
    ? { scale, clients: 8, rounds: 25, sharedFiles: 2, killTrials: 200, fuzzCases: 1_000_000, fuzzCaseLimitMs: 1000, loadConnections: 256, loadSeconds: 60, casWriters: 8, casFiles: 4, casSeconds: 60 }
    : { scale, clients: 3, rounds: 4, sharedFiles: 1, killTrials: 7, fuzzCases: 2000, fuzzCaseLimitMs: 1000, loadConnections: 16, loadSeconds: 2, casWriters: 3, casFiles: 2, casSeconds: 2 };
}

/** Prints one part's figures on stderr (the test reporter keeps stdout) as `stress <part>: k=v ...`. */
export function printFigures(part: string, figures: Record<string, unknown>): string {
  const line = `stress ${part}: ${Object.entries(figures)
    .map(([k, v]) => `${k}=${typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(2) : typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ')}`;
  process.stderr.write(`${line}\n`);
  return line;
}
