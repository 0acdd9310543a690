// The server's `instructions`: what a model reads once, before any tool description. Made from the
// tools listed, so a profile (`--tools hashline`) never names a tool the model cannot call.

/** A line of the instructions, said when every tool it `needs` is listed. */
interface Line {
  readonly needs: readonly string[];
  readonly text: (listed: ReadonlySet<string>) => string;
}

const NAVIGATION = ['fs_list', 'fs_outline', 'fs_search', 'fs_references'];

const LINES: readonly Line[] = [
  {
    needs: [],
    text: () => 'Paths are relative to the project root (or absolute inside it); nothing outside it is served.',
  },
  {
    needs: [],
    text: (listed) =>
      [...listed].some((n) => n.startsWith('fs_'))
        ? 'A read shows a ¶path#TAG header (TAG: 4 hex naming the text you saw) and lines "N| text".'
        : '',
  },
  {
    needs: [],
    text: (listed) => {
      const nav = NAVIGATION.filter((n) => listed.has(n));
      if (nav.length === 0) return '';
      const hits = nav.filter((n) => n === 'fs_search' || n === 'fs_references');
      const edit = hits.length > 0 && listed.has('fs_edit') ? ' Edit straight from their hits, no re-read needed.' : '';
      return `Find your way first: ${nav.join(', ')}.${edit}`;
    },
  },
  {
    needs: ['fs_edit'],
    text: () => 'fs_edit takes that TAG and the line numbers as read; its reply\'s ¶path#TAG serves the next edit. Refused as stale: re-read, retry with the fresh tag; never invent one.',
  },
  { needs: ['fs_rollback'], text: () => 'fs_rollback undoes a change.' },
  {
    needs: [],
    text: (listed) => {
      if (![...listed].some((n) => n.startsWith('file_') && n !== 'file_hash' && n !== 'file_read' && n !== 'file_capabilities')) return '';
      // only the hashing tools listed are named
      const from = ['file_hash', 'file_read'].filter((n) => listed.has(n));
      const source = from.length === 0 ? 'the fresh SHA-256 of the file' : `the fresh SHA-256 from ${from.join(' or ')}`;
      return `file_* changes need expectedSha256, ${source}; a batch of 1-50 files is all or none.`;
    },
  },
  {
    needs: [],
    text: (listed) => {
      const names = [...listed];
      return names.some((n) => n.startsWith('fs_')) && names.some((n) => n.startsWith('file_')) ? 'fs_* results carry the file\'s sha256, file_* results its tag: pass either on, no hashing call.' : '';
    },
  },
];

/** The instructions for a server that lists the tools `names`. */
export function instructionsFor(names: readonly string[]): string {
  const listed = new Set(names);
  return LINES.filter((l) => l.needs.every((n) => listed.has(n)))
    .map((l) => l.text(listed))
    .filter((t) => t !== '')
    .join('\n');
}

/** The instructions of a server that lists every tool. */
export const INSTRUCTIONS = instructionsFor([
  'file_hash', 'file_capabilities', 'file_read', 'file_write', 'file_patch', 'file_rename', 'file_chattr', 'file_delete',
  'fs_read', 'fs_write', 'fs_ast_edit', 'fs_edit', 'fs_rollback', ...NAVIGATION,
]);
