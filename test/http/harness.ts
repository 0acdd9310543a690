// Starts the HTTP daemon in-process on a loopback port 0 over a sandbox tree, with a request
// counter, for the tests under test/http and test/security.

import path from 'node:path';
import { mergeConfig } from '../../src/core/config/config.js';
import { createHttpServer, type HttpServerOptions } from '../../src/http/server.js';
import { createEngine, type Engine } from '../../src/tools/engine.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

export interface Daemon {
  sandbox: Sandbox;
  /** The engine behind the daemon (its locks, guard and history). */
  engine: Engine;
  url: string;
  /** Requests the server has received. */
  requests(): number;
  /** Replies fastify finished (refusals included): the fast GET path's replies are not among them. */
  routed(): number;
  /** fetch with the base URL and, unless `auth: false`, the bearer token. */
  call(pathAndQuery: string, init?: RequestInit & { auth?: boolean }): Promise<Response>;
  close(): Promise<void>;
}

export interface DaemonOptions extends Partial<Omit<HttpServerOptions, 'tools'>> {
  files?: Record<string, string | Uint8Array>;
  block?: string[];
  /** Paths (relative to the root) the read policy refuses. */
  readBlock?: string[];
  /** Absolute paths (outside the root) to allow-list. */
  allow?: string[] | ((sandbox: Sandbox) => string[]);
}

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const sandbox = await makeSandbox(options.files ?? {});
  const inRoot = (list: string[] | undefined) => (list ?? []).map((b) => path.join(sandbox.root, b));
  const allow = typeof options.allow === 'function' ? options.allow(sandbox) : (options.allow ?? []);
  const config = mergeConfig({ root: sandbox.root, allow, block: inRoot(options.block), readAllow: [], readBlock: inRoot(options.readBlock) });
  const engine = await createEngine(config);
  const { app } = await createHttpServer(engine, {
    tools: ALL_TOOLS,
    host: '127.0.0.1',
    ...options,
    limits: { diskReserveBytes: 0, ...(options.limits ?? {}) },
  });
  let count = 0;
  let routed = 0;
  app.server.prependListener('request', () => {
    count++;
  });
  app.addHook('onResponse', async () => {
    routed++;
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = options.token;
  return {
    sandbox,
    engine,
    url,
    requests: () => count,
    routed: () => routed,
    call: (p, init = {}) => {
      const { auth, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token !== undefined && auth !== false && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
      return fetch(`${url}${p}`, { ...rest, headers, ...(rest.body && typeof (rest.body as { getReader?: unknown }).getReader === 'function' ? { duplex: 'half' } : {}) } as RequestInit);
    },
    close: async () => {
      await app.close();
      await sandbox.cleanup();
    },
  };
}

export const q = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
