// MCP roots: when `hashline mcp` was started without --root, the client's roots decide where the
// boundary is. They are known only after `initialize`: the engine is built then, from `roots/list`
// (absolute paths inside any root are admitted, relative ones resolve against the first), and
// follows `notifications/roots/list_changed`. A client that offers no roots gets the working
// directory, unless that is `/` or the home directory: then every call answers a coded error
// naming --root, and nothing is served. A client root that is `/`, the home directory or a folder
// holding it is refused the same way (skipped with a log line; when no root is left, every call
// answers the refusal), at start and on each change: only --root may name such a folder.

import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { HashlineError, toHashlineError } from '../core/errors/errors.js';
import type { Engine } from '../tools/engine.js';

export interface RootsBindingOptions {
  /** Builds the engine for these roots (the first is the root); may throw a coded error. */
  build(roots: string[]): Promise<Engine>;
  /** The working directory, used when the client offers no roots. */
  cwd: string;
  /** Why the working directory may not be used (null: it may); the refusal every call then answers. */
  refuseCwd: HashlineError | null;
  /** Why a client root may not be served (null: it may); such roots are skipped. */
  refuseRoot?(dir: string): string | null;
  /** The refusal every call answers when each root the client offered was refused (the reasons from `refuseRoot`). */
  noSafeRoot?(reasons: readonly string[]): HashlineError;
  /** How long `roots/list` may take before the client is taken to offer none. */
  timeoutMs?: number;
  log(line: string): void;
}

/** The directories named by root URIs (`file://` URIs or absolute paths); others are skipped. */
export function rootPaths(roots: ReadonlyArray<{ uri: string }>, log: (line: string) => void = () => undefined): string[] {
  const out: string[] = [];
  for (const { uri } of roots) {
    let p: string;
    try {
      p = uri.startsWith('/') ? uri : fileURLToPath(new URL(uri));
    } catch {
      log(`skipping root ${uri}: not a file: URI`);
      continue;
    }
    let dir = false;
    try {
      dir = statSync(p).isDirectory();
    } catch {
      dir = false;
    }
    if (!dir) log(`skipping root ${p}: not an existing directory`);
    else if (!out.includes(p)) out.push(p);
  }
  return out;
}

export class RootsBinding {
  private current: Promise<Engine> | undefined;
  private readonly ready: Promise<void>;
  private markReady!: () => void;
  private server: Server | undefined;

  constructor(private readonly options: RootsBindingOptions) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** The engine of the client's roots (waits for `initialize`), or the coded refusal. */
  async engine(): Promise<Engine> {
    await this.ready;
    return this.current!;
  }

  /** Hooks into the server: roots are asked for once the client has initialized. */
  attach(server: Server): void {
    this.server = server;
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
      await this.ready;
      await this.rootsChanged();
    });
    const previous = server.oninitialized;
    server.oninitialized = () => {
      previous?.();
      void this.start();
    };
  }

  private settle(p: Promise<Engine>): void {
    p.catch(() => undefined); // answered to each call; not an unhandled rejection
    this.current = p;
  }

  /** The client's usable roots (null: it offers none), with the reasons of those refused. */
  private async listRoots(): Promise<{ roots: string[]; refused: string[] } | null> {
    const server = this.server!;
    if (!server.getClientCapabilities()?.roots) return null;
    let listed: string[];
    try {
      const { roots } = await server.listRoots(undefined, { timeout: this.options.timeoutMs ?? 10_000 });
      listed = rootPaths(roots, this.options.log);
    } catch (e) {
      this.options.log(`roots/list failed: ${toHashlineError(e).message}`);
      return null;
    }
    const roots: string[] = [];
    const refused: string[] = [];
    for (const dir of listed) {
      const why = this.options.refuseRoot?.(dir) ?? null;
      if (why === null) roots.push(dir);
      else {
        refused.push(why);
        this.options.log(why);
      }
    }
    return { roots, refused };
  }

  private async start(): Promise<void> {
    const listed = await this.listRoots();
    const roots = listed?.roots ?? null;
    if (listed !== null && roots!.length === 0 && listed.refused.length > 0 && this.options.noSafeRoot) {
      const refusal = this.options.noSafeRoot(listed.refused);
      this.settle(Promise.reject(refusal));
      this.options.log(refusal.message);
    } else if (roots !== null && roots.length > 0) {
      this.settle(this.options.build(roots));
      this.options.log(`roots from the client: ${roots.join(', ')}`);
    } else if (this.options.refuseCwd) {
      this.settle(Promise.reject(this.options.refuseCwd));
      this.options.log(this.options.refuseCwd.message);
    } else {
      this.settle(this.options.build([this.options.cwd]));
      this.options.log(`no roots from the client; serving the working directory ${this.options.cwd}`);
    }
    this.markReady();
  }

  private async rootsChanged(): Promise<void> {
    const roots = (await this.listRoots())?.roots ?? null;
    if (roots === null || roots.length === 0) {
      this.options.log('roots/list_changed: the client now lists no usable root; keeping the roots in force');
      return;
    }
    const engine = await this.current!.catch(() => null);
    if (engine === null) {
      this.settle(this.options.build(roots));
    } else {
      try {
        await engine.setRoots(roots);
      } catch (e) {
        this.options.log(`roots/list_changed: ${toHashlineError(e).message}; keeping the roots in force`);
        return;
      }
    }
    this.options.log(`roots changed: ${roots.join(', ')}`);
  }
}
