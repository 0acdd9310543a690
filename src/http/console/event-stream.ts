// One server-sent event stream on a raw response: the headers (no caching, no proxy buffering, the
// console's security headers), a retry hint, events as `id`/`event`/`data` frames with JSON data,
// and a comment every 15 s so idle proxies keep the connection. Ends when the client goes away or
// the server closes it.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { RAW_CONSOLE_HEADERS } from './auth/security-headers.js';

export const KEEPALIVE_MS = 15_000;

export class EventStream {
  private readonly keepalive: NodeJS.Timeout;
  private ended = false;
  private readonly closers: Array<() => void> = [];

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    extraHeaders: Record<string, string> = {},
  ) {
    res.writeHead(200, {
      ...RAW_CONSOLE_HEADERS,
      ...extraHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    req.socket.setNoDelay(true);
    res.write('retry: 2000\n\n');
    this.keepalive = setInterval(() => this.write(': keepalive\n\n'), KEEPALIVE_MS);
    this.keepalive.unref();
    const gone = () => this.end();
    req.once('close', gone);
    res.once('close', gone);
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Sends one event; `data` is sent as JSON (one line: JSON.stringify never emits a raw newline). */
  send(event: string, data: unknown, id?: number): void {
    this.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  onClose(fn: () => void): void {
    if (this.ended) fn();
    else this.closers.push(fn);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepalive);
    for (const fn of this.closers.splice(0)) fn();
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): void {
    if (!this.ended && !this.res.writableEnded) this.res.write(chunk);
  }
}
