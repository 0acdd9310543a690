// Renders one page per tool (docs/tools/NAME.md) from the tool itself: its description, the fields
// of its zod input schema (as the JSON Schema a client sees), the fields of its result, a worked
// example and the calls that provoke its error codes (scripts/docs/tool-cases.ts), each run for real
// through the MCP adapter on a fresh engine over a temp tree. Tools without cases get the schema
// refusal as their one error example, so a tool that lands later gets a page by `npm run docs`.

import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { mergeConfig } from '../../src/core/config/config.js';
import { computeTag } from '../../src/core/text/tag.js';
import { runTool } from '../../src/mcp/server.js';
import { createEngine, type Engine } from '../../src/tools/engine.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { APP_TAG, CASES, FILES, type ToolCase } from './tool-cases.js';

type Schema = { type?: string | string[]; description?: string; guide?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[]; additionalProperties?: Schema | boolean; minItems?: number; maxItems?: number; default?: unknown; minimum?: number; maximum?: number };

function typeOf(s: Schema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (s.anyOf) return s.anyOf.map(typeOf).join(' \\| ');
  if (s.type === 'array') return `${s.items ? typeOf(s.items) : 'any'}[]`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return `{ [name]: ${typeOf(s.additionalProperties)} }`;
  return Array.isArray(s.type) ? s.type.join(' \\| ') : (s.type ?? 'any');
}

function limits(s: Schema): string {
  const out: string[] = [];
  if (s.minItems !== undefined || s.maxItems !== undefined) out.push(`${s.minItems ?? 0}-${s.maxItems ?? '∞'} items`);
  if ((s.minimum !== undefined && s.minimum > -Number.MAX_SAFE_INTEGER) || (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER)) out.push(`${s.minimum ?? '-∞'}..${s.maximum ?? '∞'}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out.length ? ` (${out.join(', ')})` : '';
}

/** Rows `name | type | required | description`, nested objects flattened (`targets[].path`). */
function fieldRows(s: Schema, prefix = '', depth = 0): string[] {
  const rows: string[] = [];
  const props = s.properties ?? {};
  for (const [name, f] of Object.entries(props)) {
    const key = `${prefix}${name}`;
    const desc = (f.guide ?? f.description ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
    rows.push(`| \`${key}\` | ${typeOf(f)} | ${(s.required ?? []).includes(name) ? 'yes' : 'no'} | ${desc}${limits(f)} |`);
    if (depth < 3) {
      if (f.type === 'object' && f.properties) rows.push(...fieldRows(f, `${key}.`, depth + 1));
      if (f.type === 'array' && f.items?.properties) rows.push(...fieldRows(f.items, `${key}[].`, depth + 1));
      if (f.type === 'object' && f.additionalProperties && typeof f.additionalProperties === 'object' && f.additionalProperties.properties) {
        rows.push(...fieldRows(f.additionalProperties, `${key}.<name>.`, depth + 1));
      }
    }
  }
  return rows;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Schema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Schema;
}

const ctx = () => ({ signal: new AbortController().signal, progress: () => undefined });

interface Outcome {
  error: boolean;
  code: string | undefined;
  text: string;
}

function outcomeOf(r: CallToolResult): Outcome {
  const b = r.content[0];
  const text = b && b.type === 'text' ? b.text : '';
  const sc = (r.structuredContent ?? {}) as { error?: { code?: string }; code?: string; ok?: boolean };
  return { error: r.isError === true, code: sc.error?.code ?? sc.code, text };
}

/** A fresh engine over a temp copy of FILES; the tree is removed by `done`. */
async function sandbox(): Promise<{ engine: Engine; root: string; done: () => void }> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-docs-')));
  const root = path.join(base, 'project');
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  writeFileSync(path.join(base, 'outside.txt'), 'outside the root\n');
  const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [], history: 'memory' }), { sweepLocks: false });
  return { engine, root, done: () => rmSync(base, { recursive: true, force: true }) };
}

/** The call with `{{tag:PATH}}` and `{{sha:PATH}}` placeholders replaced by the file's tag and SHA-256 as FILES holds it. */
function withTags(args: unknown, tags: Record<string, string>): unknown {
  return JSON.parse(
    JSON.stringify(args)
      .replace(/\{\{tag:([^}]+)\}\}/g, (_, p: string) => tags[p] ?? '????')
      .replace(/\{\{sha:([^}]+)\}\}/g, (_, p: string) => (FILES[p] === undefined ? '?'.repeat(64) : createHash('sha256').update(FILES[p]!).digest('hex'))),
  );
}

async function run(tools: readonly ToolDefinition[], name: string, c: ToolCase): Promise<{ args: unknown; out: Outcome }> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const { engine, root, done } = await sandbox();
  try {
    // a tag placeholder is the tag a read of the file as FILES holds it shows; a case that needs
    // the read itself (an edit) names it in `before`
    const tags = Object.fromEntries(Object.entries(FILES).map(([p, text]) => [p, computeTag(text)]));
    for (const b of c.before ?? []) await runTool(engine, byName.get(b.tool)!, withTags(b.args, tags), ctx());
    const args = withTags(c.args, tags);
    const out = outcomeOf(await runTool(engine, byName.get(name)!, args, ctx()));
    // the temp project's location, where a message names the root, as a reader's would read
    return { args, out: { ...out, text: out.text.split(root).join('/path/to/project') } };
  } finally {
    done();
  }
}

const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text}\n\`\`\``;

function clip(text: string, lines = 40): string {
  const all = text.split('\n');
  return all.length <= lines ? text : [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n');
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export async function renderToolPage(tool: ToolDefinition, all: readonly ToolDefinition[]): Promise<string> {
  const cases = CASES[tool.name];
  const input = jsonSchema(tool.input, 'input');
  const output = jsonSchema(tool.output, 'output');
  const a = tool.annotations;
  const traits = [a.readOnlyHint ? 'read-only' : 'changes files', a.destructiveHint ? 'destructive' : null, a.idempotentHint ? 'idempotent' : null].filter(Boolean).join(', ');
  const parts: string[] = [
    `# \`${tool.name}\`: ${tool.title}`,
    '',
    `Family: **${tool.family}** (\`--tools ${tool.family}\`); ${traits}. Generated from the tool's schemas by \`npm run docs\`; every call below was run on a fresh project to write this page.`,
    '',
    ...tool.description.split('\n').map((l) => `> ${l}`),
    '',
    ...(tool.guide === undefined ? [] : ['## Usage', '', ...tool.guide.split('\n').flatMap((l) => [l, ''])]),
    '## Input',
    '',
    '| field | type | required | description |',
    '|---|---|---|---|',
    ...fieldRows(input),
    '',
    'Unknown fields are refused (`invalid_arguments`).',
    '',
    '## Result',
    '',
    tool.family === 'boundary'
      ? 'The reply is the envelope `{ "ok": true, "data": … }` (its JSON is also the text block); `data` holds:'
      : 'The text block is what the model reads; `structuredContent` holds:',
    '',
    '| field | type | required | description |',
    '|---|---|---|---|',
    ...fieldRows(output),
    '',
  ];
  if (cases) {
    const ex = await run(all, tool.name, cases.example);
    if (ex.out.error) throw new Error(`${tool.name}: the example failed: ${ex.out.text}`);
    parts.push('## Example', '', ...(cases.example.before ? [`After ${cases.example.before.map((b) => `\`${b.tool}\``).join(', ')}${cases.example.note ? ` (${cases.example.note})` : ''}:`, ''] : cases.example.note ? [`${cases.example.note}:`, ''] : []));
    parts.push(fence('json', JSON.stringify(ex.args, null, 2)), '', 'replies', '', fence('text', clip(pretty(ex.out.text))), '');
  } else {
    parts.push('## Example', '', 'No worked example yet: add one to `scripts/docs/tool-cases.ts` and run `npm run docs`.', '');
  }
  parts.push('## Errors', '', 'Each code with a call that provokes it (codes and their meaning: [errors.md](../errors.md)).', '');
  const errorCases: ToolCase[] = [{ args: { bogus: true }, code: 'invalid_arguments', note: 'an unknown field' }, ...(cases?.errors ?? [])];
  for (const c of errorCases) {
    const r = await run(all, tool.name, c);
    if (c.code !== undefined) {
      if (!r.out.error || r.out.code !== c.code) throw new Error(`${tool.name}: ${JSON.stringify(c.args)} gave ${r.out.code ?? 'no error'}, not ${c.code}: ${r.out.text}`);
      parts.push(`### \`${c.code}\`${c.note ? `: ${c.note}` : ''}`);
    } else {
      if (r.out.error) throw new Error(`${tool.name}: ${JSON.stringify(c.args)} was meant to succeed with a warning: ${r.out.text}`);
      parts.push(`### not an error${c.note ? `: ${c.note}` : ''}`);
    }
    parts.push('', fence('json', JSON.stringify(r.args)), '', fence('text', clip(pretty(r.out.text), 20)), '');
  }
  return parts.join('\n');
}

/** The index of the tool pages, and the table the README shows between its markers. */
export function renderToolTable(tools: readonly ToolDefinition[], linkBase: string): string {
  const rows = tools.map((t) => `| [\`${t.name}\`](${linkBase}${t.name}.md) | ${t.family} | ${t.title} |`);
  return ['| tool | family | what |', '|---|---|---|', ...rows].join('\n');
}

export { APP_TAG };
