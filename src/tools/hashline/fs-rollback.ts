// fs_rollback: restores a version of a file from the root's history (with the durable store, every
// session's and process's; see
// core/rollback/restore-plan.ts for the rules). Writes with the current disk's BOM and line ending
// (LF and no BOM for a deleted file, which is recreated), under the file lock; records the replaced
// disk text first so that `replaced_hash` undoes the restore. A rename that is a file's last change is
// undone by moving the file back (rollback-rename.ts).

import * as z from 'zod';
import { HashlineError, toHashlineError, type ErrorCode } from '../../core/errors/errors.js';
import * as msg from '../../core/messages/rollback.js';
import { planRestore } from '../../core/rollback/restore-plan.js';
import { formatHeader } from '../../core/text/tag.js';
import { docFromText } from '../../core/text/text-doc.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { readAdmitted } from '../../io/guard/read-admission.js';
import { loadTextFile, saveDoc, type LoadedFile } from '../../io/read/text-file.js';
import { RollbackResultSchema, type RollbackResult } from './hashline-results.js';
import { defineTool } from '../tool.js';
import { undoRename } from './rollback-rename.js';

const Input = z.strictObject({
  path: z.string().meta({ guide: 'file to restore, relative to the project root' }),
  hash: z.string().optional().meta({ guide: 'the 4-hex tag of the version to restore; "" or omitted restores the version before the current one' }),
});

const GUARD_CODES: readonly ErrorCode[] = ['invalid_path', 'path_outside_root', 'path_blocked', 'path_conflict', 'symlink_escape', 'link_swapped'];

export const fsRollbackTool = defineTool({
  name: 'fs_rollback',
  family: 'hashline',
  title: 'Restore a version',
  description: [
    'Restores an earlier version of a file (last 10 of 50 files): `hash` an earlier TAG, "" the version before.',
    'Example: {"path":"a.ts","hash":"1A2B"}',
    'An error lists the known versions: pick one, or re-read.',
  ].join('\n'),
  guide: [
    'Restores a version of a file that was read, written or edited through hashline (the last 10 versions of the 50 most recent files; the default durable history keeps them across sessions and processes). `hash` is a tag from an earlier ¶path#TAG header; "" (or no `hash`) restores the version before the current one. A deleted file is recreated. When the last change of the file was a rename (file_rename), "" (or its current tag) moves it back to its old name and the reply says so.',
    'Example: {"path": "src/a.ts", "hash": "1A2B"}',
    'Returns the restored ¶path#TAG and `replaced_hash`, the tag of what was on disk: pass it back to undo the restore.',
    'After an error, the message lists the known versions; pick one of them, or re-read the file with fs_read if it was changed outside hashline.',
  ].join('\n'),
  input: Input,
  output: RollbackResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    let rp: ResolvedPath;
    try {
      rp = await engine.guard.resolve(args.path, 'write');
    } catch (e) {
      const err = toHashlineError(e);
      if (!GUARD_CODES.includes(err.code)) throw err;
      throw new HashlineError(err.code, msg.restorePermissionDenied(args.path, err.message), { details: err.details });
    }
    const display = rp.display;
    // a read-blocked file's tags are never shown (a 4-hex tag of a short secret gives it away)
    const hidden = !readAdmitted(engine.guard, rp);
    // the last change was a rename (file_rename): "" or the tag on disk moves the file back
    const result = (await undoRename(engine, rp, args.hash ?? '', call.signal)) ?? await engine.locks.withLocks(
      [rp.real],
      async (): Promise<RollbackResult> => {
        await engine.history.load([rp.real]);
        const versions = engine.history.versions(rp.real);
        if (versions.length === 0) throw new HashlineError('history_missing', msg.noHistory(display), { details: { path: display } });
        let disk: LoadedFile | null = null;
        try {
          disk = await loadTextFile(engine.guard, rp, 'write');
        } catch (e) {
          if (toHashlineError(e).code !== 'not_found') throw e;
        }
        const plan = planRestore({
          path: display,
          hash: args.hash ?? '',
          versions,
          disk: disk === null ? null : { text: disk.text, tag: disk.tag },
          hidden,
        });
        if (disk !== null) engine.history.record(rp.real, disk.text);
        const doc = docFromText(plan.target.text, { bom: disk?.doc.bom ?? false, eol: disk?.doc.eol ?? '\n' });
        // a file deleted with its parent directories (file_delete removes the ones left empty) gets them back
        await saveDoc(engine.guard, rp, doc, { signal: call.signal, createParents: disk === null });
        // logged as a change (a known text keeps its place: "" walks further back when called again)
        engine.history.record(rp.real, plan.target.text, { tag: plan.target.tag, kind: 'made' });
        if (plan.reanchor) engine.history.reanchor(rp.real, plan.target.text);
        return {
          path: display,
          file_hash: hidden ? '' : plan.target.tag,
          header: hidden ? `¶${display}` : formatHeader(display, plan.target.tag),
          replaced_hash: hidden ? '' : plan.replacedHash,
          ...(hidden ? { warning: plan.warning === undefined ? msg.TAGS_HIDDEN : `${plan.warning}; ${msg.TAGS_HIDDEN}` } : plan.warning === undefined ? {} : { warning: plan.warning }),
        };
      },
      { signal: call.signal },
    );
    const text = [result.header, ...(result.warning === undefined ? [] : [result.warning]), `replaced_hash: ${result.replaced_hash === '' ? '""' : result.replaced_hash}`].join('\n');
    return { structured: result, text };
  },
});
