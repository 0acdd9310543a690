// The body of the SQL validation worker thread (started by io/sql/sql-worker.ts, never imported by the
// main thread): loads libpg-query's PostgreSQL 18 parser (WASM) once, then parses one text per
// message and answers whether it is valid, with the first error's line and column. It only
// computes: no disk, no network. It parses core SQL only: the bodies of DO blocks and functions
// are string constants to the parser, so PL/pgSQL inside them is not checked.
//
// The bundled CLI ships this file as its own small entry (bin/hashline-sql-worker.mjs), so the
// thread loads nothing but this code and libpg-query from node_modules.

import { parentPort, workerData } from 'node:worker_threads';
import { NUL_IN_SOURCE } from '../../core/messages/sql.js';
import { sqlCursorPosition } from '../../core/sql/sql-position.js';
import type { SqlDiagnostic } from '../../core/sql/sql-selection.js';

export interface SqlWorkerRequest {
  id: number;
  text: string;
}

export type SqlWorkerReply = { id: number; ok: true; valid: boolean; diagnostics: SqlDiagnostic[] } | { id: number; ok: false; message: string };

export interface SqlWorkerData {
  /** Tests only: spin forever on a text that contains this string (a hung parse). */
  hangWhen?: string;
}

interface PgError {
  message: string;
  sqlDetails?: { cursorPosition?: number };
}

const port = parentPort;
if (port) {
  const { hangWhen } = (workerData ?? {}) as SqlWorkerData;
  const pg = await import('libpg-query');
  await pg.loadModule();

  const check = (text: string): { valid: boolean; diagnostics: SqlDiagnostic[] } => {
    // the parser reads a C string: a NUL would end the text early and hide everything after it
    const nul = text.indexOf('\0');
    if (nul >= 0) {
      const { line, column } = sqlCursorPosition(text, [...text.slice(0, nul)].length);
      return { valid: false, diagnostics: [{ message: NUL_IN_SOURCE, line, column }] };
    }
    // the parser refuses an empty string; an empty text holds no statements, like one of blanks
    if (text === '') return { valid: true, diagnostics: [] };
    try {
      pg.parseSync(text);
      return { valid: true, diagnostics: [] };
    } catch (e) {
      const err = e as PgError;
      const cursor = err.sqlDetails?.cursorPosition;
      if (cursor === undefined) throw e;
      return { valid: false, diagnostics: [{ message: err.message, ...sqlCursorPosition(text, cursor) }] };
    }
  };

  port.on('message', (req: SqlWorkerRequest) => {
    if (hangWhen !== undefined && req.text.includes(hangWhen)) for (;;);
    let reply: SqlWorkerReply;
    try {
      reply = { id: req.id, ok: true, ...check(req.text) };
    } catch (e) {
      reply = { id: req.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
}
