// `hashline lang list | add NAME... | remove NAME...`: the grammars installed here, and adding or
// removing one in the user's grammar folder (lang/grammar/grammar-install.ts).

import { grammarDir } from '../lang/grammar/grammar-packages.js';
import { addGrammars, removeGrammars, type GrammarChange } from '../lang/grammar/grammar-install.js';
import { grammarStatus } from '../lang/grammar/registry.js';
import { parseFlags, usageError } from './options.js';

const SAID: Record<GrammarChange['outcome'], string> = {
  installed: 'installed',
  removed: 'removed',
  'built-in': 'built into ast-grep; nothing to do',
  'already-installed': 'already installed',
  'installed-with-hashline': 'installed with hashline; nothing to do',
  'not-installed': 'not installed',
};

export async function langCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseFlags('lang', argv, { json: { type: 'boolean' } }, true);
  const [action, ...names] = positionals;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (action === undefined || action === 'list') {
    const status = grammarStatus();
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ dir: grammarDir(), grammars: status }, null, 2)}\n`);
      return;
    }
    const width = Math.max(...status.map((g) => g.id.length));
    for (const g of status) {
      const where = g.source === 'missing' ? `not installed (hashline lang add ${g.id})` : g.source;
      process.stdout.write(`${g.id.padEnd(width)}  ${where.padEnd(12)}  .${g.extensions.join(' .')}\n`);
    }
    process.stdout.write(`\nadded grammars live in ${grammarDir()}\n`);
    return;
  }
  if (action !== 'add' && action !== 'remove') throw usageError('lang', `unknown action \`${action}\`; use list, add or remove`);
  if (names.length === 0) throw usageError('lang', `\`hashline lang ${action}\` needs at least one grammar name`);
  const changes = action === 'add' ? await addGrammars(names, log) : await removeGrammars(names, log);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ dir: grammarDir(), changes }, null, 2)}\n`);
  } else {
    for (const c of changes) process.stdout.write(`${c.id}: ${SAID[c.outcome]}\n`);
    if (changes.some((c) => c.outcome === 'installed' || c.outcome === 'removed')) {
      process.stdout.write('restart running hashline servers to use the change\n');
    }
  }
}
