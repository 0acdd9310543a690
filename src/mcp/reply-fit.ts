// The last guard on the reply of a tool that changes files: once the disk changed, the reply must
// say so, whatever its size (the stdio transport would otherwise replace it by an error, and the
// agent would retry a change that already happened). Each tool sizes its own reply first (diffs
// left out with a note, long listings counted); this only acts when a reply is still over the
// limit, in steps, each taken only while the reply is too large:
//   1. every `diff` is dropped from structuredContent and from the text, a note in its place;
//   2. long strings are cut (a note says so), the text to a short prefix;
//   3. long lists are halved until the reply fits (a note says how many entries were left out).
// Headers (¶path#TAG) are short and survive every step, so the new tags stay in the reply.

import { Buffer } from 'node:buffer';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '../core/config/config.js';

/** Room kept for the JSON-RPC envelope around a result (jsonrpc, id, result). */
const ENVELOPE_BYTES = 64 * 1024;
export const REPLY_LIMIT = MAX_MESSAGE_BYTES - ENVELOPE_BYTES;

export const DIFF_DROPPED = '(diff left out: the reply would exceed the message limit; the change was applied — read the file with fs_read to see it)';
export const CUT_NOTE = ' … (cut: the reply would exceed the message limit)';
/** Strings longer than this are cut in step 2 (UTF-16 units: at most 6 bytes each, escaped). */
const CUT_STRING = 4096;
/** The text is cut to this share of the limit in step 2 (in UTF-16 units: 6/16 of it at most, escaped). */
const CUT_TEXT_SHARE = 1 / 16;

type Json = unknown;

export function replyBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/** Visits every object under `value` (arrays included), depth first. */
function eachObject(value: Json, visit: (o: Record<string, Json>) => void): void {
  if (Array.isArray(value)) {
    for (const v of value) eachObject(v, visit);
  } else if (value !== null && typeof value === 'object') {
    visit(value as Record<string, Json>);
    for (const v of Object.values(value)) eachObject(v, visit);
  }
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function withText(result: CallToolResult, text: string, structured: Json): CallToolResult {
  return { ...result, content: [{ type: 'text', text }], ...(structured === undefined ? {} : { structuredContent: structured as Record<string, unknown> }) };
}

/** Step 1: drops every diff; its place in the text and the result's warnings (when a list) say so. */
function dropDiffs(text: string, structured: Json): { text: string; dropped: number } {
  let dropped = 0;
  eachObject(structured, (o) => {
    if (typeof o.diff !== 'string') return;
    // tools render a diff without its trailing newline (or whitespace)
    const shown = o.diff.replace(/\s+$/, '');
    const at = shown === '' ? -1 : text.indexOf(shown);
    if (at >= 0) text = text.slice(0, at) + DIFF_DROPPED + text.slice(at + shown.length);
    delete o.diff;
    if (Array.isArray(o.warnings)) o.warnings.push(DIFF_DROPPED);
    dropped++;
  });
  return { text, dropped };
}

/** Step 2: cuts strings longer than CUT_STRING. */
function cutStrings(value: Json): Json {
  if (typeof value === 'string') return value.length > CUT_STRING ? value.slice(0, CUT_STRING) + CUT_NOTE : value;
  if (Array.isArray(value)) return value.map(cutStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v)]));
  }
  return value;
}

/** Step 3: halves the longest list; returns how many entries it dropped (0: nothing left to halve). */
function halveLongestList(structured: Json): number {
  let longest: Json[] | undefined;
  const visit = (v: Json) => {
    if (Array.isArray(v)) {
      if (v.length > 1 && (longest === undefined || v.length > longest.length)) longest = v;
      v.forEach(visit);
    } else if (v !== null && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(structured);
  if (longest === undefined) return 0;
  const drop = longest.length - Math.ceil(longest.length / 2);
  longest.length -= drop;
  return drop;
}

/** The reply, shrunk to fit `limit` bytes when it does not (see the header of this file). */
export function fitReply(result: CallToolResult, limit: number = REPLY_LIMIT): CallToolResult {
  if (replyBytes(result) <= limit) return result;
  let structured: Json = result.structuredContent === undefined ? undefined : structuredClone(result.structuredContent);
  const step1 = dropDiffs(textOf(result), structured);
  let text = step1.text;
  let out = withText(result, text, structured);
  if (replyBytes(out) <= limit) return out;

  structured = cutStrings(structured);
  const cutText = Math.floor(limit * CUT_TEXT_SHARE);
  if (text.length > cutText) text = text.slice(0, cutText) + CUT_NOTE;
  out = withText(result, text, structured);
  let left = 0;
  while (replyBytes(out) > limit) {
    const dropped = halveLongestList(structured);
    if (dropped === 0) break;
    left += dropped;
    out = withText(result, `${text}\n(${left} list entries left out: the reply would exceed the message limit)`, structured);
  }
  return out;
}
