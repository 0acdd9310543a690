// GET /v1/schema: an OpenAPI 3.1 document generated from the route specs the routes are built from.

import { VERSION } from '../version.js';
import type { RouteSpec } from './route-schemas.js';

export function openApiDocument(specs: readonly RouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const parameters: unknown[] = [];
    for (const [name, schema] of Object.entries(spec.querystring?.properties ?? {})) {
      const { description, ...rest } = schema;
      parameters.push({ name, in: 'query', required: spec.querystring?.required?.includes(name) ?? false, description, schema: rest });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(spec.responses)) {
      responses[status] = {
        description: r.description,
        ...(r.mediaType ? { content: { [r.mediaType]: { schema: r.mediaType === 'application/json' ? { type: 'object' } : { type: 'string' } } } } : {}),
      };
    }
    (paths[spec.url] ??= {})[spec.method.toLowerCase()] = {
      summary: spec.summary,
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body
        ? { requestBody: { required: true, description: spec.body.description, content: { [spec.body.mediaType]: { schema: { type: 'string', format: 'binary' } } } } }
        : {}),
      ...(spec.auth ? {} : { security: [] }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'hashline HTTP file API',
      version: VERSION,
      description: 'Files and directory trees under one guarded root. Error bodies are text/plain; the error code is in the hashline-error-code header.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
