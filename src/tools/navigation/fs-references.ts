// fs_references: where an identifier is used, from the syntax tree (identifier and member-name
// nodes whose text is the name; comments, strings and longer names never count), grouped per file
// as tagged lines exactly like an fs_read window and recorded in the session history as seen, so
// a rename of a function and all its callers is one fs_edit batch. Each file ends with a line
// saying which shown lines define, import, call or otherwise use the name.

import { lstatSync } from 'node:fs';
import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { fileLimitReached, invalidName, referenceRoles, referencesCapped, referencesSummary } from '../../core/messages/nav.js';
import { noGrammar } from '../../core/messages/read.js';
import { noGrammarInstalled } from '../../core/messages/lang.js';
import { ReplyBudget } from '../../core/read/reply-budget.js';
import type { DecodedFile } from '../../io/read/file-cache.js';
import { loadForParse } from '../../io/read/read-lines.js';
import { filesUnder } from '../../io/tree/tree-files.js';
import { parseCached } from '../../lang/parse/parse-cache.js';
import { parseFiles } from '../../lang/parse/parse-files.js';
import { referencesIn, type Reference, type ReferenceRole } from '../../lang/references/references.js';
import { isAvailable, languageForPath } from '../../lang/grammar/registry.js';
import type { Engine } from '../engine.js';
import { HitResultSchema, taggedHits, textLines, type HitResult } from './tagged-hits.js';
import { defineTool } from '../tool.js';

const IDENTIFIER = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u;

const Input = z.strictObject({
  name: z.string().meta({ guide: 'the identifier, exactly as written in the code (no dots)' }),
  path: z.string().default('.').meta({ guide: 'directory or file to search, relative to the root' }),
  kind: z.enum(['call', 'import', 'any']).default('any').meta({ guide: 'call: call sites only; import: imports only; any: every use, definitions included' }),
  max_results: z.number().int().min(1).max(2000).default(200).meta({ guide: 'references shown at most' }),
});

const Output = z.object({
  results: z.array(HitResultSchema.extend({ references: z.array(z.object({ line: z.number().int(), column: z.number().int(), role: z.enum(['definition', 'import', 'call', 'reference']) })) })).optional(),
  total_references: z.number().int().optional(),
  files_searched: z.number().int().optional(),
  capped: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
});

type RefResult = HitResult & { references: Reference[] };

const ROLE_ORDER: ReferenceRole[] = ['definition', 'import', 'call', 'reference'];

function wanted(kind: 'call' | 'import' | 'any', r: Reference): boolean {
  return kind === 'any' || r.role === kind;
}

export const fsReferencesTool = defineTool({
  name: 'fs_references',
  family: 'hashline',
  title: 'Find references',
  description: [
    'Finds where an identifier is defined, imported or called (by syntax), as ¶path#TAG headers and `N| text` lines: one fs_edit batch renames it all.',
    'Example: {"name":"parseConfig","path":"src","kind":"call"}',
    'After an error, fix the name or path, retry.',
  ].join('\n'),
  guide: [
    'Finds the uses of an identifier from the syntax tree (comments, strings and longer names never match), grouped per file as fs_read windows: a ¶path#TAG header and `N| text` lines, then a line like `[definition 3; call 10, 22; import 1]`. Edit straight from it: one fs_edit batch can rename a function and every caller.',
    '`kind`: "call" (call sites), "import", or "any" (default: every use, definitions included).',
    'Example: {"name": "parseConfig", "path": "src", "kind": "call"}',
    'Capped at `max_results` with a note; narrow `path` to see the rest. After an error (a name that is not one identifier, a refused path), fix the argument and retry.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(engine, args, call) {
    if (!IDENTIFIER.test(args.name)) throw new HashlineError('invalid_arguments', invalidName(args.name), { details: { name: args.name } });
    const rp = await engine.guard.resolve(args.path, 'read');
    if (!rp.exists) throw new HashlineError('not_found', `\`${rp.display}\` does not exist`, { details: { path: rp.display } });
    const budget = new ReplyBudget();
    const results: RefResult[] = [];
    const notes: string[] = [];
    const max = args.max_results;
    let shown = 0;
    let capped = false;
    let searched = 0;
    let rest = 0;

    const take = (real: string, display: string, file: DecodedFile, refs: Reference[]): void => {
      const kept = refs.filter((r) => wanted(args.kind, r));
      if (kept.length === 0) return;
      const room = max - shown;
      const show = kept.slice(0, room);
      if (show.length < kept.length) capped = true;
      shown += show.length;
      const lines = [...new Set(show.map((r) => r.line))];
      const roles = new Map<string, number[]>(ROLE_ORDER.map((role) => [role, [...new Set(show.filter((r) => r.role === role).map((r) => r.line))]]));
      const src = textLines(file.text);
      results.push({ ...taggedHits(engine, { real, display, ...file }, src, lines, 0, budget, [referenceRoles(roles)]), references: show });
    };

    if (!lstatSync(rp.real).isDirectory()) {
      const lang = languageForPath(rp.display) ?? languageForPath(rp.real);
      if (!lang || !isAvailable(lang)) {
        throw new HashlineError('unsupported_language', lang ? noGrammarInstalled(rp.display, lang.id) : noGrammar(rp.display), { details: { path: rp.display } });
      }
      const loaded = await loadForParse(engine.guard, rp, call.signal);
      const tree = parseCached(lang, loaded.text);
      searched = 1;
      if (tree) take(rp.real, rp.display, { text: loaded.text, tag: loaded.tag, utf8: loaded.utf8 }, referencesIn(lang, tree, args.name));
    } else {
      const reals = await filesUnder(engine.guard, rp.real);
      const { total, files } = await parseFiles(engine.guard, reals, { needle: Buffer.from(args.name, 'utf8'), signal: call.signal });
      for await (const f of files) {
        searched++;
        if (!('root' in f)) {
          notes.push(`[warning] ${f.display}: ${f.message}`);
          continue;
        }
        take(f.real, f.display, f.file, referencesIn(f.lang, f.root, args.name));
        if (shown >= max || budget.exhausted || results.length >= engine.history.limits.maxPaths) {
          rest = total - searched;
          capped ||= rest > 0;
          if (rest > 0 && results.length >= engine.history.limits.maxPaths) notes.push(fileLimitReached(results.length));
          break;
        }
      }
    }
    notes.push(capped ? referencesCapped(max, results.length, rest) : referencesSummary(shown, results.length, searched));
    const text = [...results.map((r) => (r.warnings ? `${r.content}\n[warning] ${r.warnings}` : r.content)), notes.join('\n')].join('\n\n');
    return { structured: { results, total_references: shown, files_searched: searched, capped, notes }, text };
  },
});
