// Parses the text of a configuration file (TOML, or a 0.1 JSON file) into the schema's document.
// Every refusal is `config_invalid` naming the file, the line and the reason, so a bad file stops
// the start (or a reload) with something a person can fix.

import { findNodeAtLocation, parse as parseJson, parseTree, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { parse as parseToml, TomlError } from 'smol-toml';
import type * as z from 'zod';
import { configSchema, fromLegacy, legacyConfigSchema, type ConfigDoc } from './config-schema.js';
import { HashlineError } from '../errors/errors.js';

function refuse(file: string, line: number | undefined, reason: string): HashlineError {
  const where = line === undefined ? `\`${file}\`` : `\`${file}\` line ${line}`;
  return new HashlineError('config_invalid', `invalid configuration ${where}: ${reason}`, {
    details: { file, ...(line === undefined ? {} : { line }), reason },
  });
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Splits a TOML key (dotted, possibly quoted) into its parts. */
function tomlKeyParts(raw: string): string[] {
  const parts: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(?:\.|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < raw.length && (m = re.exec(raw)) !== null) parts.push(m[1] ?? m[2] ?? m[3] ?? '');
  return parts;
}

/** The line where the key at `keyPath` is written in a TOML text, if it can be found. */
export function tomlLineOf(text: string, keyPath: readonly (string | number)[]): number | undefined {
  const want = keyPath.filter((p): p is string => typeof p === 'string');
  if (want.length === 0) return undefined;
  let table: string[] = [];
  let best: number | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.replace(/\s+#.*$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[\[?([^\]]+)\]\]?$/.exec(line);
    if (header) {
      table = tomlKeyParts(header[1]!);
      if (table.length <= want.length && table.every((p, k) => p === want[k]) && best === undefined && table.length === want.length) best = i + 1;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const full = [...table, ...tomlKeyParts(line.slice(0, eq))];
    if (full.length <= want.length && full.every((p, k) => p === want[k])) {
      if (full.length === want.length) return i + 1;
    }
  }
  return best;
}

function jsonLineOf(text: string, keyPath: readonly (string | number)[]): number | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  for (let n = keyPath.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, [...keyPath.slice(0, n)]);
    if (node) return lineOfOffset(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
  }
  return undefined;
}

function schemaRefusal(file: string, error: z.ZodError, lineOf: (p: readonly (string | number)[]) => number | undefined): HashlineError {
  const issue = error.issues[0]!;
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  let keyPath = path;
  let reason = issue.message;
  if (issue.code === 'unrecognized_keys') {
    keyPath = [...path, issue.keys[0]!];
    reason = `unknown key \`${keyPath.join('.')}\``;
  } else if (path.length > 0) {
    reason = `\`${path.join('.')}\`: ${issue.message}`;
  }
  return refuse(file, lineOf(keyPath), reason);
}

/** Parses a TOML configuration text. Throws `config_invalid`. */
export function parseTomlConfig(file: string, text: string): ConfigDoc {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (e) {
    if (e instanceof TomlError) throw refuse(file, e.line, e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, ''));
    throw refuse(file, undefined, (e as Error).message);
  }
  const parsed = configSchema().safeParse(raw);
  if (!parsed.success) throw schemaRefusal(file, parsed.error, (p) => tomlLineOf(text, p));
  return parsed.data;
}

/** Parses a 0.1 JSON configuration and converts it. Throws `config_invalid`. */
export function parseJsonConfig(file: string, text: string): ConfigDoc {
  const errors: ParseError[] = [];
  const raw: unknown = parseJson(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw refuse(file, lineOfOffset(text, first.offset), printParseErrorCode(first.error));
  }
  const parsed = legacyConfigSchema().safeParse(raw);
  if (!parsed.success) throw schemaRefusal(file, parsed.error, (p) => jsonLineOf(text, p));
  return fromLegacy(parsed.data);
}

/** TOML unless the file is named `*.json` or its text starts with `{` (a 0.1 JSON file). */
export function parseConfigText(file: string, text: string): ConfigDoc {
  const json = file.toLowerCase().endsWith('.json') || text.trimStart().startsWith('{');
  return json ? parseJsonConfig(file, text) : parseTomlConfig(file, text);
}
