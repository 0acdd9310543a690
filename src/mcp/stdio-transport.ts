// MCP over stdio with a size limit that keeps the session: a request over the limit is skipped up
// to its newline and answered (the SDK's own transport closes the connection instead): a tools/call
// with its tool's own error result (`too_large`: the boundary envelope, or the hashline `{ error }`),
// anything else with a JSON-RPC error; and a reply over the limit is replaced by an error naming the limit (only a reply of
// a tool that changes nothing can get there: the others are fitted first, see reply-fit.ts).

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '../core/config/config.js';
import { HashlineError } from '../core/errors/errors.js';
import { carriesLongText, encodeSharingStrings } from './shared-stringify.js';
import { TopLevelIdScanner } from './top-level-id.js';

const MiB = 1024 * 1024;

/** The result of a call of tool `name` that failed with `error`; undefined when no such tool is served. */
export type CallErrorResult = (name: string, error: HashlineError) => Record<string, unknown> | undefined;


export class LimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** While skipping an oversize message: a scanner for its id, and its size so far. */
  private skipping: { scanner: TopLevelIdScanner; size: number } | null = null;
  private readonly onData = (chunk: Buffer) => this.ingest(chunk);
  private readonly onEnd = () => void this.close();

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly limit: number = MAX_MESSAGE_BYTES,
    private readonly callError?: CallErrorResult,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', (e: Error) => this.onerror?.(e));
  }

  private ingest(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const nl = rest.indexOf(0x0a);
      const piece = nl < 0 ? rest : rest.subarray(0, nl);
      rest = nl < 0 ? Buffer.alloc(0) : rest.subarray(nl + 1);
      if (this.skipping) {
        this.skipping.size += piece.length;
        this.skipping.scanner.push(piece);
        if (nl >= 0) this.finishSkip();
        continue;
      }
      this.chunks.push(piece);
      this.buffered += piece.length;
      if (this.buffered > this.limit) {
        const scanner = new TopLevelIdScanner();
        for (const c of this.chunks) scanner.push(c);
        this.skipping = { scanner, size: this.buffered };
        this.chunks = [];
        this.buffered = 0;
        if (nl >= 0) this.finishSkip();
        continue;
      }
      if (nl >= 0) {
        const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
        this.chunks = [];
        this.buffered = 0;
        if (line.trim() !== '') this.dispatch(line);
      }
    }
  }

  private finishSkip(): void {
    const { scanner, size } = this.skipping!;
    this.skipping = null;
    const id = scanner.id ?? null;
    const message = `request of ${size} bytes exceeds the ${this.limit / MiB} MiB message limit; split it into smaller calls (fewer files or smaller text per call)`;
    process.stderr.write(`hashline: ${message}\n`);
    if (id === null) return;
    const tool = scanner.method === 'tools/call' ? scanner.toolName : undefined;
    const result = tool === undefined ? undefined : this.callError?.(tool, new HashlineError('too_large', message, { details: { size, limit: this.limit } }));
    if (result !== undefined) void this.send({ jsonrpc: '2.0', id, result } as JSONRPCMessage);
    else void this.send({ jsonrpc: '2.0', id, error: { code: -32600, message, data: { code: 'too_large' } } });
  }

  private dispatch(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (e) {
      void this.send({ jsonrpc: '2.0', id: null as unknown as string, error: { code: -32700, message: 'Parse error: the line is not a JSON-RPC message' } });
      this.onerror?.(e as Error);
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (carriesLongText(message)) {
      // a long reply: UTF-8 chunks with its long text escaped and encoded once, written in one go
      const chunks = encodeSharingStrings(message);
      const size = chunks.reduce((n, c) => n + c.length, 0);
      if (size <= this.limit) {
        this.output.cork();
        for (const c of chunks) this.output.write(c);
        const ok = this.output.write('\n');
        this.output.uncork();
        if (!ok) await new Promise<void>((r) => this.output.once('drain', () => r()));
        return;
      }
    }
    let json = JSON.stringify(message);
    // no UTF-16 unit takes more than 3 UTF-8 bytes: count exactly only when it could matter
    if (json.length * 3 > this.limit && Buffer.byteLength(json) > this.limit && 'id' in message && message.id !== undefined) {
      json = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32603,
          message: `the reply would exceed the ${this.limit / MiB} MiB message limit; ask for less (a line_range, fewer targets)`,
          data: { code: 'too_large' },
        },
      });
    }
    const ok = this.output.write(`${json}\n`);
    if (!ok) await new Promise<void>((r) => this.output.once('drain', () => r()));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.chunks = [];
    this.onclose?.();
  }
}
