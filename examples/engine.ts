// The engine and its tools from code: read a file, edit it by line number with the tag the read
// gave, see a stale edit refused, and roll the change back. Run: npx tsx examples/engine.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callTool, createEngine, fsEditTool, fsReadTool, fsRollbackTool } from 'hashline';

const root = mkdtempSync(path.join(tmpdir(), 'hashline-example-'));
writeFileSync(path.join(root, 'greet.ts'), 'export function greet() {\n  return "hi";\n}\n');
try {
  const engine = await createEngine({ root });

  const read = await callTool(engine, fsReadTool, { targets: [{ path: 'greet.ts' }] });
  if (!read.ok) throw new Error(read.error.message);
  console.log(read.text); // ¶greet.ts#TAG, then numbered lines
  const tag = read.data.results?.[0]?.file_hash ?? '';

  const edit = await callTool(engine, fsEditTool, { targets: [{ path: 'greet.ts', file_hash: tag, ops: 'replace 2:\n+  return "hello";' }] });
  console.log(edit.ok ? edit.text : edit.error.message);

  // the same tag again: line 2 changed since that read, so this edit is refused and nothing is written
  const stale = await callTool(engine, fsEditTool, { targets: [{ path: 'greet.ts', file_hash: tag, ops: 'replace 2:\n+  return "hey";' }] });
  console.log(stale.ok ? 'applied?' : `refused: ${stale.error.code}`);

  const undo = await callTool(engine, fsRollbackTool, { path: 'greet.ts' });
  console.log(undo.ok ? `restored ${undo.data.header}` : undo.error.message);
} finally {
  rmSync(root, { recursive: true, force: true });
}
