// A plan back to DSL text (for logs, tests and tools that build edits): parsing the printed text
// gives the same ops.

import type { EditOp } from './ops.js';

function range(start: number, end: number): string {
  return start === end ? `${start}` : `${start}..${end}`;
}

function header(op: EditOp): string {
  switch (op.kind) {
    case 'replace':
      return `replace ${range(op.start, op.end)}:`;
    case 'delete':
      return `delete ${range(op.start, op.end)}`;
    case 'insert_before':
      return `insert before ${op.line}:`;
    case 'insert_after':
      return `insert after ${op.line}:`;
    case 'insert_head':
      return 'insert head:';
    case 'insert_tail':
      return 'insert tail:';
    case 'replace_block':
      return `replace block ${op.line}:`;
    case 'delete_block':
      return `delete block ${op.line}`;
  }
}

/** DSL text for `ops`, one header per op, each body row prefixed with `+`. */
export function printEditOps(ops: readonly EditOp[]): string {
  const out: string[] = [];
  for (const op of ops) {
    out.push(header(op));
    if ('rows' in op) for (const row of op.rows) out.push(`+${row}`);
  }
  return out.join('\n');
}
