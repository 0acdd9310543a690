// The rules of one file_read request, with the family's wording: a window is [start, end),
// zero-based; `range` and its alias `lines` exclude each other, as do `selectors` and `symbols`;
// `byteOffset` (bytes of the window's first line to leave out, to go on with a cut line) needs a window.

import { HashlineError } from '../../core/errors/errors.js';

export const DEFAULT_LINES: readonly [number, number] = [0, 100];
export const FILE_READ_MAX_LINES = 1000;
export const FILE_READ_MAX_BYTES = 1024 * 1024;

export interface ReadRequest {
  filePath: string;
  mode?: 'auto' | 'ast' | 'text' | undefined;
  range?: { start: number; end: number } | undefined;
  lines?: [number, number] | undefined;
  maxBytes?: number | undefined;
  byteOffset?: number | undefined;
  language?: string | undefined;
  selectors?: string[] | undefined;
  symbols?: string[] | undefined;
}

function refuse(message: string, filePath: string): never {
  throw new HashlineError('invalid_range', message, { details: { filePath } });
}

/** Throws `invalid_range` / `invalid_arguments` with the family's messages. */
export function checkReadRequest(req: ReadRequest): void {
  if (req.range !== undefined && req.lines !== undefined) {
    throw new HashlineError('invalid_arguments', 'file_read takes either range or lines, not both', { details: { filePath: req.filePath } });
  }
  if (req.selectors !== undefined && req.symbols !== undefined) {
    throw new HashlineError('invalid_arguments', 'file_read takes either selectors or symbols, not both', { details: { filePath: req.filePath } });
  }
  const window = req.range ? [req.range.start, req.range.end] : req.lines;
  if (window !== undefined) {
    const [start, end] = window as [number, number];
    if (!Number.isInteger(start) || start < 0) refuse('file_read line start must be a non-negative integer', req.filePath);
    if (!Number.isInteger(end) || end <= start) refuse('file_read line end must be greater than line start', req.filePath);
    if (end - start > FILE_READ_MAX_LINES) refuse(`file_read line ranges are capped at ${FILE_READ_MAX_LINES} lines`, req.filePath);
  }
  if (req.byteOffset !== undefined) {
    if (!Number.isInteger(req.byteOffset) || req.byteOffset < 0) refuse('file_read byteOffset must be a non-negative integer', req.filePath);
    if (window === undefined) refuse('file_read byteOffset needs a window (range or lines): it counts bytes of the window\'s first line', req.filePath);
  }
  if (req.maxBytes !== undefined && (!Number.isInteger(req.maxBytes) || req.maxBytes < 1 || req.maxBytes > FILE_READ_MAX_BYTES)) {
    refuse(`file_read maxBytes must be between 1 and ${FILE_READ_MAX_BYTES}`, req.filePath);
  }
}
