// The routes of the HTTP API as data: method, URL, summary, strict per-part JSON schemas and the
// statuses each answers. server.ts registers the fastify routes from these objects and openapi.ts
// builds GET /v1/schema from the same objects, so the document cannot drift from the routes.

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: boolean;
}

export interface RouteSpec {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  summary: string;
  auth: boolean;
  querystring?: JsonSchemaObject;
  headers?: JsonSchemaObject;
  /** Request body media type, when the route takes one. */
  body?: { mediaType: string; description: string };
  responses: Record<string, { description: string; mediaType?: string }>;
}

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });

const AUTH_HEADERS: JsonSchemaObject = {
  type: 'object',
  properties: {
    authorization: str('`Bearer <token>`; required when the daemon has a token', { pattern: '^[Bb]earer ' }),
  },
  additionalProperties: true,
};

const BODY_HEADERS: JsonSchemaObject = {
  type: 'object',
  properties: {
    ...AUTH_HEADERS.properties,
    'content-length': str('body length in bytes', { pattern: '^[0-9]+$' }),
  },
  additionalProperties: true,
};

const PATH = str('file or directory, relative to the root or absolute inside it');
const TEXT = 'text/plain';

const STALLED = { description: 'the body stalled or did not arrive in time; nothing written; the connection is closed', mediaType: TEXT };

const guarded = {
  '401': { description: 'missing or wrong bearer token', mediaType: TEXT },
  '403': { description: "refused by the path guard (the guard's message), or a foreign Host/Origin", mediaType: TEXT },
};

export const FILE_GET: RouteSpec = {
  method: 'GET',
  url: '/v1/fs/file',
  summary: 'Read a file, or a 1-based inclusive line window of it (a line owns its `\\n`)',
  auth: true,
  querystring: {
    type: 'object',
    properties: {
      path: PATH,
      start_line: str('first line, 1-based inclusive; absent means 1',),
      end_line: str('last line, 1-based inclusive; absent or past EOF means through EOF',),
    },
    additionalProperties: false,
  },
  headers: AUTH_HEADERS,
  responses: {
    '200': { description: 'the bytes of the window (no range: the file unchanged)', mediaType: 'application/octet-stream' },
    '400': { description: 'a bad range, a missing path, or a directory', mediaType: TEXT },
    ...guarded,
    '404': { description: 'no such file', mediaType: TEXT },
    '500': { description: 'cannot read file', mediaType: TEXT },
  },
};

export const FILE_PUT: RouteSpec = {
  method: 'PUT',
  url: '/v1/fs/file',
  summary: 'Replace or create a file atomically with the raw body; parent directories are created',
  auth: true,
  querystring: {
    type: 'object',
    properties: { path: PATH, mode: str('octal file mode: 644, 0644 or 0o644, at most 0o777 (setuid, setgid and sticky bits are refused)') },
    additionalProperties: false,
  },
  headers: BODY_HEADERS,
  body: { mediaType: 'application/octet-stream', description: 'the new content, streamed' },
  responses: {
    '204': { description: 'written' },
    '400': { description: 'a missing path, a bad mode (or one with setuid, setgid or sticky bits), or a directory', mediaType: TEXT },
    ...guarded,
    '408': STALLED,
    '413': { description: 'body over the limit; nothing written', mediaType: TEXT },
    '500': { description: 'cannot write file', mediaType: TEXT },
    '503': { description: "the path's lock stayed held past the deadline; nothing written; retry", mediaType: TEXT },
    '507': { description: 'free space would fall below the reserve (checked from Content-Length, then while the body arrives); nothing written', mediaType: TEXT },
  },
};

export const TAR_GET: RouteSpec = {
  method: 'GET',
  url: '/v1/fs/tar',
  summary: 'An uncompressed tar of a directory; links archived as links, never followed',
  auth: true,
  querystring: { type: 'object', properties: { path: PATH }, additionalProperties: false },
  headers: AUTH_HEADERS,
  responses: {
    '200': { description: 'the archive', mediaType: 'application/x-tar' },
    '400': { description: 'a missing path, or not a directory', mediaType: TEXT },
    ...guarded,
    '404': { description: 'no such directory', mediaType: TEXT },
    '413': { description: 'the tree has more members or bytes than the caps', mediaType: TEXT },
  },
};

export const TAR_PUT: RouteSpec = {
  method: 'PUT',
  url: '/v1/fs/tar',
  summary: "Extract a tar into a directory under CPython tarfile's `data` filter rules; refused archives write nothing",
  auth: true,
  querystring: {
    type: 'object',
    properties: { path: str('absolute directory inside the root (created if missing)') },
    additionalProperties: false,
  },
  headers: BODY_HEADERS,
  body: { mediaType: 'application/x-tar', description: 'an uncompressed tar, streamed' },
  responses: {
    '204': { description: 'extracted' },
    '400': { description: 'a relative path, a refused member, or a malformed or truncated body', mediaType: TEXT },
    ...guarded,
    '408': STALLED,
    '413': { description: 'body, member count or uncompressed bytes over the caps', mediaType: TEXT },
    '500': { description: 'tar operation failed', mediaType: TEXT },
    '503': { description: "a member's lock stayed held past the deadline; retry", mediaType: TEXT },
    '507': { description: "free space would fall below the reserve (checked from the archive's member total before any member, then as members land)", mediaType: TEXT },
  },
};

export const HEALTH: RouteSpec = {
  method: 'GET',
  url: '/v1/health',
  summary: 'Liveness, version and free space (no auth)',
  auth: false,
  querystring: { type: 'object', properties: {}, additionalProperties: false },
  responses: { '200': { description: '{version, disk: {available_bytes, reserve_bytes, under_pressure} | null, busy}', mediaType: 'application/json' } },
};

export const SCHEMA: RouteSpec = {
  method: 'GET',
  url: '/v1/schema',
  summary: 'This OpenAPI document (no auth)',
  auth: false,
  querystring: { type: 'object', properties: {}, additionalProperties: false },
  responses: { '200': { description: 'OpenAPI 3.1 document', mediaType: 'application/json' } },
};

export const MCP_POST: RouteSpec = {
  method: 'POST',
  url: '/mcp',
  summary: 'MCP over Streamable HTTP (JSON-RPC; `initialize` opens a session named by the mcp-session-id header)',
  auth: true,
  headers: AUTH_HEADERS,
  body: { mediaType: 'application/json', description: 'a JSON-RPC message' },
  responses: {
    '200': { description: 'JSON or an SSE stream', mediaType: 'application/json' },
    '202': { description: 'accepted (notifications and responses)' },
    '400': { description: 'no valid session, or unparsable JSON', mediaType: 'application/json' },
    ...guarded,
    '408': STALLED,
    '404': { description: 'unknown session', mediaType: 'application/json' },
  },
};

export const ROUTE_SPECS: readonly RouteSpec[] = [FILE_GET, FILE_PUT, TAR_GET, TAR_PUT, HEALTH, SCHEMA, MCP_POST];

/** The fastify `schema` option of a route: the strict per-part schemas. */
export function fastifySchema(spec: RouteSpec): Record<string, unknown> {
  return {
    ...(spec.querystring ? { querystring: spec.querystring } : {}),
    ...(spec.headers ? { headers: spec.headers } : {}),
  };
}
