// Every tool hashline serves, and the selection rule of `--tools` (names or family names). A server
// that should load a tool's module only on its first call uses tools/tool-loaders.ts instead.

import { fileCapabilitiesTool } from './file-capabilities.js';
import { fileChattrTool } from './file-chattr.js';
import { fileDeleteTool } from './file-delete.js';
import { fileHashTool } from './file-hash.js';
import { filePatchTool } from './file-patch.js';
import { fileReadTool } from './file-read.js';
import { fileRenameTool } from './file-rename.js';
import { fileWriteTool } from './file-write.js';
import { fsAstEditTool } from './fs-ast-edit.js';
import { fsEditTool } from './fs-edit.js';
import { fsListTool } from './fs-list.js';
import { fsOutlineTool } from './fs-outline.js';
import { fsReadTool } from './fs-read.js';
import { fsReferencesTool } from './fs-references.js';
import { fsRollbackTool } from './fs-rollback.js';
import { fsSearchTool } from './fs-search.js';
import { fsWriteTool } from './fs-write.js';
import type { ToolDefinition } from './tool.js';
import { pickTools } from './tool-select.js';

const tools = [fileHashTool, fileCapabilitiesTool, fileReadTool, fileWriteTool, filePatchTool, fileRenameTool, fileChattrTool, fileDeleteTool, fsReadTool, fsWriteTool, fsAstEditTool, fsEditTool, fsRollbackTool, fsListTool, fsSearchTool, fsOutlineTool, fsReferencesTool];
export const ALL_TOOLS: readonly ToolDefinition[] = tools.map((t) => t as unknown as ToolDefinition);

/** The tools named by `selection` (tool names and/or family names); all tools when undefined. */
export function selectTools(selection: readonly string[] | undefined, all: readonly ToolDefinition[] = ALL_TOOLS): ToolDefinition[] {
  return pickTools(selection, all);
}
