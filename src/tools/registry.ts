// Every tool hashline serves, and the selection rule of `--tools` (names or family names). A server
// that should load a tool's module only on its first call uses tools/tool-loaders.ts instead.

import { fileCapabilitiesTool } from './boundary/file-capabilities.js';
import { fileChattrTool } from './boundary/file-chattr.js';
import { fileDeleteTool } from './boundary/file-delete.js';
import { fileHashTool } from './boundary/file-hash.js';
import { filePatchTool } from './boundary/file-patch.js';
import { fileReadTool } from './boundary/file-read.js';
import { fileRenameTool } from './boundary/file-rename.js';
import { fileWriteTool } from './boundary/file-write.js';
import { fsAstEditTool } from './hashline/fs-ast-edit.js';
import { fsEditTool } from './hashline/fs-edit.js';
import { fsListTool } from './navigation/fs-list.js';
import { fsOutlineTool } from './navigation/fs-outline.js';
import { fsReadTool } from './hashline/fs-read.js';
import { fsReferencesTool } from './navigation/fs-references.js';
import { fsRollbackTool } from './hashline/fs-rollback.js';
import { fsSearchTool } from './navigation/fs-search.js';
import { fsWriteTool } from './hashline/fs-write.js';
import type { ToolDefinition } from './tool.js';
import { pickTools } from './tool-select.js';

const tools = [fileHashTool, fileCapabilitiesTool, fileReadTool, fileWriteTool, filePatchTool, fileRenameTool, fileChattrTool, fileDeleteTool, fsReadTool, fsWriteTool, fsAstEditTool, fsEditTool, fsRollbackTool, fsListTool, fsSearchTool, fsOutlineTool, fsReferencesTool];
export const ALL_TOOLS: readonly ToolDefinition[] = tools.map((t) => t as unknown as ToolDefinition);

/** The tools named by `selection` (tool names and/or family names); all tools when undefined. */
export function selectTools(selection: readonly string[] | undefined, all: readonly ToolDefinition[] = ALL_TOOLS): ToolDefinition[] {
  return pickTools(selection, all);
}
