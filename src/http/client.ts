// The typed client of the HTTP file API. `readTextFile` follows the AI SDK harness sandbox contract
// (1-based inclusive startLine/endLine, an endLine past EOF reads through EOF) and applies the same
// `lineWindow` rule the daemon does before sending anything, so a range the daemon would refuse
// costs no request and fails with the same words. Failures are HashlineErrors with the daemon's
// code (from the `hashline-error-code` header) or one derived from the status.

import { ERROR_CODES, type ErrorCode, HashlineError } from '../core/errors/errors.js';
import { lineWindow } from '../core/read/line-window.js';
import { codeForStatus, ERROR_CODE_HEADER } from './error-reply.js';

export interface HashlineClientOptions {
  /** e.g. `http://127.0.0.1:9000` */
  baseUrl: string;
  token?: string | undefined;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface LineRange {
  startLine?: number | undefined;
  endLine?: number | undefined;
}

export type Body = string | Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

function toBodyInit(data: Body): { body: BodyInit; duplex?: 'half' } {
  if (typeof data === 'string') return { body: data };
  if (data instanceof Uint8Array) return { body: data as unknown as BodyInit };
  if (data instanceof ReadableStream) return { body: data, duplex: 'half' };
  const it = data[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await it.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await it.return?.();
    },
  });
  return { body: stream, duplex: 'half' };
}

export class HashlineClient {
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(options: HashlineClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  private async request(method: string, route: string, query: Record<string, string | number | undefined>, init: { body?: Body } = {}): Promise<Response> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: { body?: BodyInit; duplex?: 'half' } = {};
    if (init.body !== undefined) {
      body = toBodyInit(init.body);
      headers['content-type'] = 'application/octet-stream';
    }
    const res = await this.fetchImpl(`${this.baseUrl}${route}?${params}`, { method, headers, ...body } as RequestInit);
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    const named = res.headers.get(ERROR_CODE_HEADER);
    const code: ErrorCode = named !== null && named in ERROR_CODES ? (named as ErrorCode) : codeForStatus(res.status);
    throw new HashlineError(code, text || `HTTP ${res.status}`, { details: { status: res.status }, retryable: res.status === 503 || res.status === 507 });
  }

  /** The bytes of a file, or of lines startLine..endLine (1-based, inclusive). */
  async readFile(path: string, range: LineRange = {}): Promise<Uint8Array> {
    const w = lineWindow({ path, start_line: range.startLine, end_line: range.endLine });
    if (!w.ok) throw new HashlineError('invalid_range', w.message, { details: { path, ...range } });
    const res = await this.request('GET', '/v1/fs/file', { path, start_line: range.startLine, end_line: range.endLine });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** The text of a file, or of lines startLine..endLine (1-based, inclusive), decoded as UTF-8. */
  async readTextFile(path: string, range: LineRange = {}): Promise<string> {
    return new TextDecoder().decode(await this.readFile(path, range));
  }

  /** Replaces or creates a file atomically; `mode` is an octal number (0o644) or string ('644'). */
  async writeFile(path: string, data: Body, options: { mode?: number | string } = {}): Promise<void> {
    const mode = typeof options.mode === 'number' ? options.mode.toString(8) : options.mode;
    await this.request('PUT', '/v1/fs/file', { path, mode }, { body: data });
  }

  /** An uncompressed tar of a directory, as a stream. */
  async getTar(path: string): Promise<ReadableStream<Uint8Array>> {
    const res = await this.request('GET', '/v1/fs/tar', { path });
    return res.body ?? new ReadableStream({ start: (c) => c.close() });
  }

  /** Extracts a tar into the directory at `path` (absolute, inside the daemon's root). */
  async putTar(path: string, tar: Body): Promise<void> {
    await this.request('PUT', '/v1/fs/tar', { path }, { body: tar });
  }

  /** The daemon's health document. */
  async health(): Promise<Record<string, unknown>> {
    const res = await this.request('GET', '/v1/health', {});
    return (await res.json()) as Record<string, unknown>;
  }
}
