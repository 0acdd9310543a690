// Facts about one file that the boundary tools decide on: its kind (text, binary, directory,
// missing), language and document format, and parse health, plus its bytes when it is small
// enough to parse. Shared by file_capabilities, file_read and file_patch.

import { statSync } from 'node:fs';
import type { FileFacts } from '../../core/capabilities.js';
import { DOCUMENT_SOURCE_MAX_BYTES, documentFormatFor, parseDocument } from '../../core/documents.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { decodeBytes } from '../../core/text/text-codec.js';
import { openVerified, readVerified } from '../../io/guard/open-verified.js';
import { readVerifiedSmall } from '../../io/read/read-verified-sync.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { sourceParseHealth } from '../../lang/parse/parse-health.js';
import { isAvailable, LANGUAGES, languageById, languageForPath } from '../../lang/grammar/registry.js';
import type { Engine } from '../engine.js';

/** Files up to this size are read in synchronous calls (page-cache reads of microseconds). */
const READ_SYNC_MAX = 1024 * 1024;

/** Files up to this size are read whole and parsed for their health. */
export const PARSE_CHECK_MAX_BYTES = DOCUMENT_SOURCE_MAX_BYTES;

export interface InspectedFile {
  facts: FileFacts;
  size?: number;
  /** The whole file, when it is a regular file no larger than PARSE_CHECK_MAX_BYTES. */
  bytes?: Buffer;
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Decoded text for parsing (a BOM dropped; bytes that are not UTF-8 escaped as the text model does). */
export function textForParse(bytes: Uint8Array): string {
  return decodeBytes(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes).text;
}

export async function inspectFile(engine: Engine, rp: ResolvedPath, options: { parse?: boolean; language?: string } = {}): Promise<InspectedFile> {
  let lang = languageForPath(rp.real);
  if (options.language !== undefined) {
    lang = languageById(options.language);
    if (lang === undefined) {
      throw new HashlineError('unsupported_language', `no grammar is named \`${options.language}\`; known: ${LANGUAGES.map((l) => l.id).join(', ')}`, { details: { filePath: rp.display } });
    }
  }
  const documentFormat = documentFormatFor(rp.real);
  const base = { language: lang?.id, grammarInstalled: lang ? isAvailable(lang) : false, documentFormat };
  if (!rp.exists) return { facts: { kind: 'missing', ...base, parse: { status: 'not_checked' } } };
  let st;
  try {
    st = statSync(rp.real);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { facts: { kind: 'missing', ...base, parse: { status: 'not_checked' } } };
    throw toHashlineError(e);
  }
  if (st.isDirectory()) return { facts: { kind: 'directory', ...base, parse: { status: 'not_checked' } }, size: st.size };
  if (st.size > PARSE_CHECK_MAX_BYTES) {
    const head = Buffer.alloc(Math.min(8192, st.size));
    const vh = await openVerified(engine.guard, rp, 'read');
    try {
      await vh.handle.read(head, 0, head.length, 0);
    } finally {
      await vh.handle.close();
    }
    const kind = isBinary(head) ? 'binary' : 'text';
    return { facts: { kind, ...base, parse: { status: 'not_checked', note: `larger than ${PARSE_CHECK_MAX_BYTES} bytes` } }, size: st.size };
  }
  // a file up to 1 MiB in synchronous calls (no thread-pool round trip per system call)
  const { bytes } = readVerifiedSmall(engine.guard, rp, 'read', READ_SYNC_MAX) ?? (await readVerified(engine.guard, rp, 'read'));
  if (isBinary(bytes)) return { facts: { kind: 'binary', ...base, parse: { status: 'unsupported' } }, size: bytes.length, bytes };
  if (options.parse === false) return { facts: { kind: 'text', ...base, parse: { status: 'not_checked' } }, size: bytes.length, bytes };
  const text = textForParse(bytes);
  let parse: FileFacts['parse'] = { status: 'unsupported' };
  if (documentFormat !== undefined) {
    const doc = parseDocument(documentFormat, text);
    const first = doc.errors[0];
    parse = first ? { status: 'invalid', errorCount: doc.errors.length, firstError: first } : { status: 'parseable', errorCount: 0 };
  } else if (lang !== undefined) {
    parse = sourceParseHealth(lang, text);
  }
  return { facts: { kind: 'text', ...base, parse }, size: bytes.length, bytes };
}
