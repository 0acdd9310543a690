// file_capabilities: for 1-50 paths, what the boundary tools can do with each: kind, language,
// document format, parse health, and the read modes, patch strategies, aider matchers and selector
// formats it supports (intrinsic) and that the configuration leaves (effective), with the
// configuration's generation and identity (and why its newest edit was refused, if it was), and
// which history store keeps the versions (with its warning when it is not the one asked for).

import path from 'node:path';
import * as z from 'zod';
import { isWithin } from '../../core/config/path-policy.js';
import { effectiveMethods, intrinsicMethods } from '../../core/capabilities.js';
import { boundaryError } from '../../core/errors/envelope.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { fileList } from './boundary-batch.js';
import { FileError } from './boundary-schemas.js';
import type { Engine } from '../engine.js';
import { inspectFile } from './file-facts.js';
import { grammarAddCommand } from '../../core/messages/lang.js';
import { FORMATTER_PLACE } from '../../core/messages/patch.js';
import { isAvailable, LANGUAGES } from '../../lang/grammar/registry.js';
import { defineTool } from '../tool.js';

const Methods = z.object({ read: z.array(z.string()), patch: z.array(z.string()), aiderMatchers: z.array(z.string()) });

export const CapabilityEntry = z.object({
  filePath: z.string(),
  kind: z.enum(['text', 'binary', 'directory', 'missing']).optional(),
  size: z.number().optional(),
  language: z.string().optional(),
  grammarInstalled: z.boolean().optional(),
  documentFormat: z.string().optional(),
  parse: z
    .object({
      status: z.string(),
      errorCount: z.number().optional(),
      firstError: z.object({ line: z.number(), column: z.number(), message: z.string().optional() }).optional(),
      note: z.string().optional(),
    })
    .optional(),
  generation: z.number().optional(),
  intrinsic: Methods.extend({ selectors: z.array(z.string()) }).optional(),
  effective: Methods.optional(),
  error: FileError.optional(),
});
export type CapabilityEntry = z.infer<typeof CapabilityEntry>;

const Configuration = z.object({
  generation: z.number(),
  identity: z.string(),
  file: z.string().optional(),
  lastError: z.object({ message: z.string(), at: z.string() }).optional(),
  readModes: z.array(z.string()),
  patchStrategies: z.array(z.string()),
  aiderMatchers: z.array(z.string()),
  requireHash: z.boolean(),
  access: z.enum(['restricted', 'unrestricted']).describe('file access as approved at start: unrestricted admits paths outside the root'),
  formatters: z.object({ names: z.array(z.string()), place: z.string() }).describe('formatters file_patch and file_write run at commit, and where they may live'),
});

const Input = z.strictObject({
  filePaths: fileList('file_capabilities', z.string().min(1)).meta({ guide: '1-50 paths, relative to the root' }),
});
const Grammars = z.object({
  installed: z.array(z.string()),
  notInstalled: z.array(z.string()),
  add: z.string(),
});
const History = z.object({
  store: z.enum(['sqlite', 'postgres', 'memory', 'off']),
  durable: z.boolean(),
  warning: z.string().optional(),
});
const Output = z.object({ configuration: Configuration, grammars: Grammars, history: History, files: z.array(CapabilityEntry) });

/** The grammars usable in this process, those that are not, and the command that adds one. */
function grammarList(): z.infer<typeof Grammars> {
  const installed: string[] = [];
  const notInstalled: string[] = [];
  for (const l of LANGUAGES) (isAvailable(l) ? installed : notInstalled).push(l.id);
  return { installed, notInstalled, add: grammarAddCommand('NAME') };
}

/** The capabilities of one resolved path (also used by file_read's results). */
export async function capabilitiesOf(engine: Engine, filePath: string): Promise<CapabilityEntry> {
  const rp = await engine.guard.resolve(filePath, 'read');
  const { facts, size } = await inspectFile(engine, rp);
  const intrinsic = intrinsicMethods(facts);
  const state = engine.configState();
  return {
    filePath: rp.display,
    kind: facts.kind,
    ...(size === undefined ? {} : { size }),
    ...(facts.language === undefined ? {} : { language: facts.language, grammarInstalled: facts.grammarInstalled }),
    ...(facts.documentFormat === undefined ? {} : { documentFormat: facts.documentFormat }),
    parse: facts.parse,
    generation: state.generation,
    intrinsic,
    effective: effectiveMethods(intrinsic, state.settings),
  };
}

export const fileCapabilitiesTool = defineTool({
  name: 'file_capabilities',
  family: 'boundary',
  title: 'File capabilities',
  description: [
    'Per path: kind, language, grammar, parse health, and which read modes and patch strategies apply.',
    'Example: {"filePaths":["a.ts"]}',
    'Errors are per path.',
  ].join('\n'),
  guide: [
    'For 1-50 paths: kind (text, binary, directory, missing), language (and whether its grammar is installed; `grammars` lists them all), parse health, and the effective read modes (ast, text), patch strategies (ast, aider_block), aider matchers and selector formats after configuration; `history` says which store keeps versions for fs_rollback (durable or not). Call it before file_read mode "ast" or file_patch to pick a method that is available.',
    'Example: {"filePaths": ["src/app.ts", "config.yaml"]}',
    'A path that cannot be inspected gets an `error` entry; the others are still reported. After an error, fix the path and call again.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const files: CapabilityEntry[] = [];
    for (const p of args.filePaths) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      try {
        files.push(await capabilitiesOf(engine, p));
      } catch (e) {
        const err = toHashlineError(e);
        if (err.code === 'aborted') throw err;
        files.push({ filePath: p, error: boundaryError(err, p) });
      }
      call.progress({ progress: files.length, total: args.filePaths.length });
    }
    const state = engine.configState();
    const s = state.settings;
    const configuration = {
      generation: state.generation,
      identity: state.identity,
      // the file's name only when it lies outside the root: outside paths are not shown to agents
      ...(state.file === undefined ? {} : { file: isWithin(state.file, engine.guard.root) ? engine.guard.display(state.file) : path.basename(state.file) }),
      ...(state.lastError === undefined ? {} : { lastError: state.lastError }),
      readModes: [...s.readModes],
      patchStrategies: [...s.patchStrategies],
      aiderMatchers: [...s.aiderMatchers],
      requireHash: s.requireHash,
      access: engine.config.access ?? 'restricted',
      // names only: a default name is the program, whose path outside the root is not shown
      formatters: { names: s.formatters.map((f) => path.basename(f.name)), place: FORMATTER_PLACE },
    };
    const h = engine.history.status();
    // the store's kind and its warning (the line the MCP instructions carry too), not its location
    const history = { store: h.backend, durable: h.durable, ...(h.warning === undefined ? {} : { warning: h.warning }) };
    return { structured: { configuration, grammars: grammarList(), history, files }, text: '' };
  },
});
