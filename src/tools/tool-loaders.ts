// Every tool of the registry as a lazy entry: its name and family, and a `load` that imports the
// tool's module (and what only it needs: yaml, regexpp, the edit and merge code ...) on first use.
// `hashline mcp` serves these, so a start loads the server and the prebuilt tools/list entries only
// (src/mcp/tool-listing.ts). Same names, families and order as ALL_TOOLS in tools/registry.ts (a test
// checks it); each entry loads the registry's own definition.

import type { Family } from '../core/config/config.js';
import type { ToolDefinition } from './tool.js';
import { pickTools } from './tool-select.js';

export interface LazyTool {
  readonly name: string;
  readonly family: Family;
  /** The tool's definition, its module imported on the first call (the same object every time). */
  load(): Promise<ToolDefinition>;
}

const as = (t: unknown) => t as ToolDefinition;

function lazy(name: string, family: Family, importer: () => Promise<ToolDefinition>): LazyTool {
  let loading: Promise<ToolDefinition> | undefined;
  return { name, family, load: () => (loading ??= importer()) };
}

export const LAZY_TOOLS: readonly LazyTool[] = [
  lazy('file_hash', 'boundary', async () => as((await import('./boundary/file-hash.js')).fileHashTool)),
  lazy('file_capabilities', 'boundary', async () => as((await import('./boundary/file-capabilities.js')).fileCapabilitiesTool)),
  lazy('file_read', 'boundary', async () => as((await import('./boundary/file-read.js')).fileReadTool)),
  lazy('file_write', 'boundary', async () => as((await import('./boundary/file-write.js')).fileWriteTool)),
  lazy('file_patch', 'boundary', async () => as((await import('./boundary/file-patch.js')).filePatchTool)),
  lazy('file_rename', 'boundary', async () => as((await import('./boundary/file-rename.js')).fileRenameTool)),
  lazy('file_chattr', 'boundary', async () => as((await import('./boundary/file-chattr.js')).fileChattrTool)),
  lazy('file_delete', 'boundary', async () => as((await import('./boundary/file-delete.js')).fileDeleteTool)),
  lazy('fs_read', 'hashline', async () => as((await import('./hashline/fs-read.js')).fsReadTool)),
  lazy('fs_write', 'hashline', async () => as((await import('./hashline/fs-write.js')).fsWriteTool)),
  lazy('fs_ast_edit', 'hashline', async () => as((await import('./hashline/fs-ast-edit.js')).fsAstEditTool)),
  lazy('fs_edit', 'hashline', async () => as((await import('./hashline/fs-edit.js')).fsEditTool)),
  lazy('fs_rollback', 'hashline', async () => as((await import('./hashline/fs-rollback.js')).fsRollbackTool)),
  lazy('fs_list', 'hashline', async () => as((await import('./navigation/fs-list.js')).fsListTool)),
  lazy('fs_search', 'hashline', async () => as((await import('./navigation/fs-search.js')).fsSearchTool)),
  lazy('fs_outline', 'hashline', async () => as((await import('./navigation/fs-outline.js')).fsOutlineTool)),
  lazy('fs_references', 'hashline', async () => as((await import('./navigation/fs-references.js')).fsReferencesTool)),
];

/** The lazy entries named by `selection` (the rule of tools/registry.ts `selectTools`). */
export function selectLazyTools(selection: readonly string[] | undefined): LazyTool[] {
  return pickTools(selection, LAZY_TOOLS);
}

/** True for a lazy entry, false for a tool definition. */
export function isLazyTool(t: LazyTool | ToolDefinition): t is LazyTool {
  return typeof (t as Partial<LazyTool>).load === 'function';
}

/** Loads every lazy entry's module, one after the other; a failure is met again by the tool's call. */
export async function prefetchLazyTools(tools: readonly (LazyTool | ToolDefinition)[]): Promise<void> {
  for (const t of tools) if (isLazyTool(t)) await t.load().catch(() => undefined);
}
