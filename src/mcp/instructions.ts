// The server's `instructions`: what a model reads once, before any tool description. A server that
// lists some of the tools (`--tools`) sends only the lines that name no other tool.

import { LAZY_TOOLS } from '../tools/tool-loaders.js';

export const INSTRUCTIONS = `hashline serves the files under one project root.
Every read returns a header ¶path#TAG (TAG = 4 hex digits naming the exact text you were shown) and numbered lines "N| text".
Find your way first: fs_list (a tree), fs_outline (the symbols of files or folders), fs_search (text or regex), fs_references (where a name is defined, imported, called).
fs_search and fs_references return their hits as tagged lines, exactly like fs_read: edit straight from them with fs_edit (that TAG, those line numbers), no re-read needed.
To change a file, pass that TAG back to fs_edit and address lines by the numbers you read; line numbers always refer to the text as read.
If an edit is refused as stale or unknown, re-read the file (or the lines you need) and retry with the fresh tag; never invent a tag.
After a successful edit the result carries the new ¶path#TAG: use it for the next edit without re-reading. fs_rollback undoes an edit (hash "" restores the version before).
To move, re-mode or delete files: file_hash for a fresh SHA-256, then file_rename, file_chattr or file_delete with it as expectedSha256 (1-50 files, all or none).
Paths are relative to the root (or absolute inside it); anything outside, or reached through a link that leads outside, is refused.`;

const TOOL_NAMES = LAZY_TOOLS.map((t) => ({ name: t.name, named: new RegExp(`\\b${t.name}\\b`) }));

/** The instructions of a server that lists the tools `listed`: a line naming a tool not listed is left out. */
export function instructionsFor(listed: readonly string[]): string {
  const served = new Set(listed);
  const keeps = (line: string) => TOOL_NAMES.every((t) => served.has(t.name) || !t.named.test(line));
  return INSTRUCTIONS.split('\n').filter(keeps).join('\n');
}
