// The library's public surface: every export listed by name.

export { HashlineError, ERROR_CODES, isHashlineError, toHashlineError } from './core/errors.js';
export type { ErrorCode, HashlineErrorOptions } from './core/errors.js';
export { computeTag, formatHeader, normalizeForTag, TagHasher, isTag } from './core/tag.js';
export { xxhash32, Xxh32 } from './core/xxhash32.js';
export { parseDoc, serializeDoc, docText, docFromText, splitLines, normalizeToLf } from './core/text-doc.js';
export type { TextDoc, LineEnding } from './core/text-doc.js';
export { decodeBytes, encodeText } from './core/text-codec.js';
export { mergeConfig, ConfigFileSchema, MAX_BATCH_FILES, MAX_MESSAGE_BYTES } from './core/config.js';
export type { EngineConfig, ConfigFile, Family } from './core/config.js';
export { SnapshotStore } from './core/history/snapshot-store.js';
export { MAX_PATHS, MAX_VERSIONS_PER_PATH, MAX_SNAPSHOT_BYTES } from './core/history/limits.js';
export { PathGuard } from './io/path-guard.js';
export type { ResolvedPath, GuardOptions } from './io/path-guard.js';
export { createEngine } from './tools/engine.js';
export type { Engine } from './tools/engine.js';
export { ALL_TOOLS, selectTools } from './tools/registry.js';
export type { ToolDefinition, ToolOutput, CallContext } from './tools/tool.js';
export { createMcpServer, runTool } from './mcp/server.js';
export { LimitedStdioTransport } from './mcp/stdio-transport.js';
export { VERSION } from './version.js';
