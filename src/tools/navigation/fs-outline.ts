// fs_outline: the symbols of files or directory trees (kind, name, line span, nesting) from the
// language registry's definition rules, as a compact indented list under each file's ¶path#TAG
// header, so the agent picks a symbol and reads it (fs_read `symbol` or `line_range`). A file named
// as a target is recorded in the session history (no lines marked as seen: none were shown); the
// files of a walked directory are not.

import { lstatSync } from 'node:fs';
import * as z from 'zod';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { MAX_BATCH_FILES } from '../../core/config/config.js';
import { noOutline, outlineCapped } from '../../core/messages/nav.js';
import { noGrammar } from '../../core/messages/read.js';
import { noGrammarInstalled } from '../../core/messages/lang.js';
import { formatHeader } from '../../core/text/tag.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { loadForParse } from '../../io/read/read-lines.js';
import { filesUnder } from '../../io/tree/tree-files.js';
import { outlineOf, type OutlineSymbol } from '../../lang/symbols/outline.js';
import { parseCached } from '../../lang/parse/parse-cache.js';
import { parseFiles } from '../../lang/parse/parse-files.js';
import { isAvailable, languageForPath } from '../../lang/grammar/registry.js';
import { hasDefinitions } from '../../lang/symbols/symbols.js';
import type { Engine } from '../engine.js';
import { defineTool } from '../tool.js';

const Input = z.strictObject({
  targets: z.array(z.strictObject({ path: z.string().meta({ guide: 'file or directory, relative to the root' }) })).min(1).max(MAX_BATCH_FILES),
  max_results: z.number().int().min(1).max(5000).default(200).meta({ guide: 'symbols shown at most, over all targets' }),
});

const SymbolSchema = z.object({ kind: z.string(), name: z.string(), start: z.number().int(), end: z.number().int(), depth: z.number().int() });
const FileOutline = z.object({
  path: z.string(),
  file_hash: z.string(),
  header: z.string(),
  symbols: z.array(SymbolSchema),
  warnings: z.string().optional(),
});
type FileOutline = z.infer<typeof FileOutline>;

const Output = z.object({ results: z.array(FileOutline).optional(), capped: z.boolean().optional(), notes: z.array(z.string()).optional() });

export function outlineLine(s: OutlineSymbol): string {
  return `${'  '.repeat(s.depth)}${s.kind} ${s.name} ${s.start === s.end ? s.start : `${s.start}-${s.end}`}`;
}

function render(r: FileOutline): string {
  if (r.header === '') return `[warning] ${r.path}: ${r.warnings ?? ''}`;
  return [r.header, ...(r.symbols.length ? r.symbols.map(outlineLine) : ['(no symbols)']), ...(r.warnings ? [`[warning] ${r.warnings}`] : [])].join('\n');
}

const warning = (path: string, message: string): FileOutline => ({ path, file_hash: '', header: '', symbols: [], warnings: message });

export const fsOutlineTool = defineTool({
  name: 'fs_outline',
  family: 'hashline',
  title: 'Outline symbols',
  description: [
    'Lists definitions in files or trees as `kind name START-END` lines under ¶path#TAG headers; then fs_read a symbol or line_range.',
    'Example: {"targets":[{"path":"src"}]}',
    'A bad path or a file without a grammar is a warning: fix it, retry.',
  ].join('\n'),
  guide: [
    'Lists the definitions in files or directory trees (functions, classes, methods, types, top-level constants...) as `kind name START-END` lines, indented by nesting, under each file\'s ¶path#TAG header. Pick a symbol, then fs_read it (`symbol`, or `line_range` "START-END").',
    'Example: {"targets": [{"path": "src/server.ts"}, {"path": "src/lib"}]} → `¶src/server.ts#1A2B` / `class Server 12-80` / `  method start 20-41`',
    'Capped at `max_results` symbols with a note saying what was left out; outline a narrower path next. A missing or refused path, or a file without a grammar, is a warning for that target: fix the path and retry. When every target is a warning, the reply is an error (isError).',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    const results: FileOutline[] = [];
    const notes: string[] = [];
    let shown = 0;
    let capped = false;
    const max = args.max_results;
    const add = (real: string, display: string, text: string, tag: string, symbols: OutlineSymbol[], record: boolean): void => {
      // a file named as a target is recorded (its tag is then good for an edit); the files of a walked
      // tree are not, so that outlining a large tree never pushes the files being edited out of the
      // session history (it keeps the 50 most recent)
      if (record) engine.history.record(real, text, { tag });
      const room = max - shown;
      if (room <= 0) {
        capped = true;
        return;
      }
      const kept = symbols.slice(0, room);
      shown += kept.length;
      results.push({ path: display, file_hash: tag, header: formatHeader(display, tag), symbols: kept });
      if (kept.length < symbols.length) capped = true;
    };
    for (const target of args.targets) {
      if (call.signal.aborted) throw new HashlineError('aborted', 'aborted');
      if (capped) break;
      let rp: ResolvedPath;
      try {
        rp = await engine.guard.resolve(target.path, 'read');
        if (!rp.exists) throw new HashlineError('not_found', `\`${rp.display}\` does not exist`);
      } catch (e) {
        results.push(warning(target.path, toHashlineError(e).message));
        continue;
      }
      if (!lstatSync(rp.real).isDirectory()) {
        const lang = languageForPath(rp.display) ?? languageForPath(rp.real);
        if (!lang || !isAvailable(lang)) {
          results.push(warning(rp.display, lang ? noGrammarInstalled(rp.display, lang.id) : noGrammar(rp.display)));
          continue;
        }
        try {
          const loaded = await loadForParse(engine.guard, rp, call.signal);
          const tree = parseCached(lang, loaded.text);
          add(rp.real, rp.display, loaded.text, loaded.tag, tree ? outlineOf(lang, tree) : [], true);
        } catch (e) {
          results.push(warning(rp.display, toHashlineError(e).message));
        }
        continue;
      }
      const reals = await filesUnder(engine.guard, rp.real);
      const { total, files } = await parseFiles(engine.guard, reals, { accept: hasDefinitions, signal: call.signal });
      let done = 0;
      let any = false;
      for await (const f of files) {
        done++;
        if (!('root' in f)) {
          results.push(warning(f.display, f.message));
          continue;
        }
        const symbols = outlineOf(f.lang, f.root);
        if (symbols.length === 0) continue;
        any = true;
        add(f.real, f.display, f.file.text, f.file.tag, symbols, false);
        if (capped || shown >= max) {
          capped ||= done < total;
          if (capped) notes.push(outlineCapped(max, results.filter((r) => r.header !== '').length, total - done));
          break;
        }
      }
      if (!any) results.push(warning(rp.display, noOutline(rp.display)));
    }
    if (capped && notes.length === 0) notes.push(outlineCapped(max, results.filter((r) => r.header !== '').length, 0));
    const text = [...results.map(render), ...notes].join('\n\n');
    // as fs_read: a call that outlined nothing (every target a warning) is an error for the client
    const nothing = results.length > 0 && results.every((r) => r.header === '');
    return { structured: { results, capped, ...(notes.length ? { notes } : {}) }, text, ...(nothing ? { isError: true } : {}) };
  },
});
