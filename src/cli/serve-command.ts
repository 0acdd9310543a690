// `hashline serve`: the HTTP file API and /mcp on fastify. Prints where it listens, where the token
// is and a ready-to-paste MCP client configuration. Without a token given (--token-file or
// HASHLINE_TOKEN) a random one is made at start and printed, so no other local user can write
// through the loopback port; `--no-token` serves without one, on loopback only. SIGTERM
// and SIGINT stop accepting connections, let requests in flight finish (writes are temp + rename,
// so one cut short leaves no torn file), close MCP sessions and exit 0; connections still open
// after SHUTDOWN_GRACE_MS, or at a second signal, are closed.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../core/errors/errors.js';
import { isLoopbackHost } from '../http/host-check.js';
import type { HttpLimits } from '../http/limits.js';
import { createHttpServer } from '../http/server.js';
import { removeStaleSpools } from '../http/tar/tar-extract.js';
import { createEngine, type Engine } from '../tools/engine.js';
import { parseEngineArgs } from './options.js';
import { clientConfig } from './client-config.js';

const SERVE_FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'token-file': { type: 'string' },
  'no-token': { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'max-body-bytes': { type: 'string' },
  'disk-reserve-bytes': { type: 'string' },
  'max-tar-members': { type: 'string' },
  'max-tar-bytes': { type: 'string' },
  'body-idle-timeout-ms': { type: 'string' },
  'request-timeout-ms': { type: 'string' },
  'lock-timeout-ms': { type: 'string' },
} as const;

function intFlag(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) {
    throw new HashlineError('invalid_arguments', `--${name} must be a non-negative integer, got \`${String(raw)}\``);
  }
  return Number(raw);
}

interface TokenChoice {
  token: string | undefined;
  where: string;
  /** True when the token was made at start: it is printed, since no one else knows it. */
  generated: boolean;
}

function readToken(file: string | undefined, noToken: boolean, host: string): TokenChoice {
  const env = process.env.HASHLINE_TOKEN;
  const envToken = env !== undefined && env.trim() !== '' ? env.trim() : undefined;
  if (noToken) {
    if (file !== undefined || envToken !== undefined) {
      throw new HashlineError('invalid_arguments', `--no-token contradicts ${file !== undefined ? '--token-file' : 'HASHLINE_TOKEN'}: give one or the other`);
    }
    if (!isLoopbackHost(host)) {
      throw new HashlineError(
        'invalid_arguments',
        `refusing to listen on ${host} without a bearer token: anyone who can reach it could read and write under the root. --no-token is for loopback (127.0.0.1) only; give --token-file FILE, set HASHLINE_TOKEN, or drop --no-token to have a token made at start.`,
      );
    }
    return { token: undefined, where: 'no token (--no-token): every local user can read and write under the root', generated: false };
  }
  if (file !== undefined) {
    let token: string;
    try {
      token = readFileSync(file, 'utf8').trim();
    } catch (e) {
      throw new HashlineError('invalid_arguments', `cannot read --token-file \`${file}\`: ${(e as Error).message}`);
    }
    if (token === '') throw new HashlineError('invalid_arguments', `--token-file \`${file}\` is empty`);
    return { token, where: `the bearer token is in ${file}`, generated: false };
  }
  if (envToken !== undefined) return { token: envToken, where: 'the bearer token is in the environment variable HASHLINE_TOKEN', generated: false };
  if (!isLoopbackHost(host)) {
    throw new HashlineError(
      'invalid_arguments',
      `refusing to listen on ${host} without a bearer token: anyone who can reach it could read and write under the root. Give --token-file FILE or set HASHLINE_TOKEN, or listen on 127.0.0.1.`,
    );
  }
  const token = randomBytes(24).toString('base64url');
  return { token, where: 'no token was given, so one was made for this run (--no-token serves without one, on loopback only)', generated: true };
}

function historyLine(engine: Engine): string {
  const s = engine.history.status();
  if (s.warning !== undefined) return `${s.backend} (${s.warning})`;
  return s.location === undefined ? s.backend : `${s.backend} at ${s.location}`;
}

/** How long a stop waits for requests in flight before it closes their connections (HASHLINE_SHUTDOWN_GRACE_MS). */
const SHUTDOWN_GRACE_MS = Number(process.env.HASHLINE_SHUTDOWN_GRACE_MS) > 0 ? Number(process.env.HASHLINE_SHUTDOWN_GRACE_MS) : 10_000;

export async function serveCommand(argv: string[]): Promise<void> {
  const { config, configSource, values } = parseEngineArgs(argv, SERVE_FLAGS);
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const port = intFlag(values, 'port') ?? 9000;
  if (port > 65535) throw new HashlineError('invalid_arguments', `--port must be at most 65535, got ${port}`);
  const { token, where, generated } = readToken(values['token-file'] as string | undefined, values['no-token'] === true, host);
  const limits: Partial<HttpLimits> = {};
  const set = (k: keyof HttpLimits, flag: string) => {
    const v = intFlag(values, flag);
    if (v !== undefined) (limits as Record<string, number>)[k] = v;
  };
  set('maxBodyBytes', 'max-body-bytes');
  set('diskReserveBytes', 'disk-reserve-bytes');
  set('maxTarMembers', 'max-tar-members');
  set('maxTarBytes', 'max-tar-bytes');
  set('bodyIdleTimeoutMs', 'body-idle-timeout-ms');
  set('requestTimeoutMs', 'request-timeout-ms');
  set('lockTimeoutMs', 'lock-timeout-ms');
  const allowedHosts = values['allowed-host'] as string[] | undefined;

  // an explicit --tools is checked now; the default selection loads with the first /mcp session
  const loadTools = async () => (await import('../tools/registry.js')).selectTools(config.tools);
  const tools = config.tools === undefined ? loadTools : await loadTools();
  const tokenFile = values['token-file'] as string | undefined;
  const engine = await createEngine(config, { configSource, seal: tokenFile === undefined ? [] : [path.resolve(tokenFile)] });
  await removeStaleSpools();
  const { app } = await createHttpServer(engine, { tools, token, host, allowedHosts, limits });
  await app.listen({ host, port });
  const addr = app.server.address();
  const actualPort = typeof addr === 'object' && addr !== null ? addr.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${actualPort}`;
  const httpConfig = {
    mcpServers: {
      hashline: {
        type: 'http',
        url: `${url}/mcp`,
        ...(token === undefined ? {} : { headers: { Authorization: `Bearer ${generated ? token : '<token>'}` } }),
      },
    },
  };
  const stdio = clientConfig({ client: 'claude-desktop', root: engine.guard.root });
  process.stdout.write(
    [
      `hashline ${engine.guard.root}: serving on ${url}`,
      `  files: ${url}/v1/fs/file  trees: ${url}/v1/fs/tar  MCP: ${url}/mcp  schema: ${url}/v1/schema`,
      `  console: ${url}/ (${token === undefined ? 'open on loopback' : generated ? 'log in with the token below' : 'log in with the token'})`,
      `  auth: ${where}`,
      ...(generated ? [`  token: ${token}`] : []),
      `  history: ${historyLine(engine)}`,
      '',
      'MCP client configuration (Streamable HTTP):',
      JSON.stringify(httpConfig, null, 2),
      '',
      'or over stdio, without the daemon:',
      stdio.text,
      ...(stdio.note ? [`(${stdio.note})`] : []),
      '',
    ].join('\n'),
  );

  let closing = false;
  // a client that stops reading (a GET of a large archive left open) would hold the graceful close
  // for ever: after the grace, or at a second signal, the connections left are closed (a write cut
  // short leaves no torn file; the history's commits are flushed before the exit all the same)
  const cut = (why: string) => {
    process.stderr.write(`hashline: ${why}: closing the connections left\n`);
    app.server.closeAllConnections();
  };
  const shutdown = (signal: string) => {
    if (closing) {
      cut(`${signal} again`);
      return;
    }
    closing = true;
    process.stderr.write(`hashline: ${signal}: finishing requests in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s), then exiting\n`);
    setTimeout(() => cut(`requests still open after ${SHUTDOWN_GRACE_MS / 1000} s`), SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => engine.history.close().finally(() => process.exit(0)),
      (e: unknown) => {
        process.stderr.write(`hashline: shutdown failed: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
