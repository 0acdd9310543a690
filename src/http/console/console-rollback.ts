// The console's rollback button: restores one version of a file through fs_rollback's own code
// (`fsRollbackTool.run` on the engine as the call sees it), logged with tool `console` and the
// session's client. The console names a version by its log id, fs_rollback by its tag among the
// versions the tools see (the last 10 of a path): a version older than that window, or one whose
// tag another text shares, is first recorded again as the path's newest known version (logged as
// `seen` by the console), so the tag names exactly the text of that id. Text versions only.

import { randomUUID } from 'node:crypto';
import { HashlineError } from '../../core/errors/errors.js';
import { binaryNotRestorable } from '../../core/messages/console.js';
import { decodeBytes } from '../../core/text/text-codec.js';
import { engineForCall, type Engine } from '../../tools/engine.js';
import { fsRollbackTool } from '../../tools/hashline/fs-rollback.js';
import type { RollbackResult } from '../../tools/hashline/hashline-results.js';
import type { VersionReader } from './version-reader.js';

export interface RollbackRequest {
  readonly id: number;
  /** How the history names who asked (`http:<token id>` or `http:loopback`). */
  readonly client: string;
  readonly signal: AbortSignal;
}

export async function rollbackToVersion(engine: Engine, reader: VersionReader, req: RollbackRequest): Promise<RollbackResult> {
  // this root's versions only (a PostgreSQL store may hold others)
  const found = await reader.stored(req.id);
  const { entry } = found;
  const display = engine.guard.display(entry.path);
  // the guard first: nothing is recorded for a path the rollback would refuse
  await engine.guard.resolve(entry.path, 'write');
  if (entry.kind !== 'text' || entry.tag === null) throw new HashlineError('invalid_arguments', binaryNotRestorable(display));
  const text = decodeBytes(found.bytes).text;
  const call = engineForCall(engine, { tool: 'console', client: req.client, clientName: 'web console', batch: randomUUID() });
  try {
    await call.history.load([entry.path]);
    const sameTag = call.history.withTag(entry.path, entry.tag);
    if (sameTag[0]?.text !== text) call.history.record(entry.path, text, { tag: entry.tag });
    const out = await fsRollbackTool.run(call, { path: entry.path, hash: entry.tag }, { signal: req.signal, progress: () => undefined });
    return out.structured;
  } finally {
    // what the rollback recorded is stored before the reply says it happened
    await engine.history.flush();
  }
}
