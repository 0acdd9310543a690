// The library's public surface, every export listed by name. Four entry points:
// - an engine over a folder (`createEngine({ root })`) and the tools run on it (`callTool`);
// - the HTTP client of `hashline serve` (`HashlineClient`);
// - the MCP and HTTP servers, to embed in a process of your own;
// - the error codes every face reports.
// The Vercel AI SDK adapter is its own entry point: `import { aiSdkTools } from 'hashline/ai'`.
// Everything else in the package is internal and may change without notice.

// engine and tools
export { createEngine } from './api/create-engine.js';
export type { CreateEngineOptions } from './api/create-engine.js';
export type { Durability } from './core/config/config-schema.js';
export type { Engine } from './tools/engine.js';
export { callTool } from './api/call-tool.js';
export type { ToolReply, ToolError, CallOptions } from './api/call-tool.js';
export { ALL_TOOLS, selectTools } from './tools/registry.js';
export type { ToolDefinition, ToolAnnotations, Progress } from './tools/tool.js';
export { fsReadTool } from './tools/hashline/fs-read.js';
export { fsWriteTool } from './tools/hashline/fs-write.js';
export { fsEditTool } from './tools/hashline/fs-edit.js';
export { fsAstEditTool } from './tools/hashline/fs-ast-edit.js';
export { fsRollbackTool } from './tools/hashline/fs-rollback.js';
export { fsListTool } from './tools/navigation/fs-list.js';
export { fsSearchTool } from './tools/navigation/fs-search.js';
export { fsOutlineTool } from './tools/navigation/fs-outline.js';
export { fsReferencesTool } from './tools/navigation/fs-references.js';
export { fileHashTool } from './tools/boundary/file-hash.js';
export { fileCapabilitiesTool } from './tools/boundary/file-capabilities.js';
export { fileReadTool } from './tools/boundary/file-read.js';
export { fileWriteTool } from './tools/boundary/file-write.js';
export { filePatchTool } from './tools/boundary/file-patch.js';
export { fileRenameTool } from './tools/boundary/file-rename.js';
export { fileChattrTool } from './tools/boundary/file-chattr.js';
export { fileDeleteTool } from './tools/boundary/file-delete.js';
export type { ReadResult, WriteResult, EditResult, RollbackResult } from './tools/hashline/hashline-results.js';

// the content tag of the hashline family (`¶path#TAG`)
export { computeTag, formatHeader } from './core/text/tag.js';

// the durable history (engine.history.query, when the store is durable)
export type { HistoryStore, HistoryQuery, HistoryStatus, LogEntry, FeedQuery } from './core/history/history-store.js';

// HTTP client
export { HashlineClient } from './http/client.js';
export type { HashlineClientOptions, LineRange } from './http/client.js';

// servers to embed
export { createMcpServer } from './mcp/server.js';
export { createHttpServer } from './http/server.js';
export type { HttpServerOptions, HttpServer } from './http/server.js';

// errors
export { HashlineError, isHashlineError, ERROR_CODES, CODES } from './core/errors/errors.js';
export type { ErrorCode } from './core/errors/errors.js';

export { VERSION } from './version.js';
