// Runs an external formatter over a candidate, never over the live file: `stdout` mode pipes the
// candidate in and takes what the program prints; `in_place` mode writes it to a staged copy (same
// base name, in a private temporary directory), lets the program rewrite that copy, and reads it
// back. No shell: the configured argv is run as it is (a relative program path with a `/` is
// resolved against the root; a bare name is looked up on PATH). Right before each start the
// program must lie where no tool or route can write (io/program-check.ts: outside every root and
// writable allow-list entry); it runs by its real path, with a scrubbed environment (no token, no
// history URL), in its own process group, killed whole at the time limit. A refused or missing
// program, a non-zero exit, a timeout, an empty result for a non-empty file or an oversized one
// is `format_failed` with the end of the program's stderr; nothing is downloaded.

import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatterArgv } from '../core/config/format-select.js';
import type { FormatterSpec } from '../core/config/config-schema.js';
import { HashlineError } from '../core/errors/errors.js';
import { formatterNotFound, formatterRefused } from '../core/messages/patch.js';
import type { PathGuard } from './guard/path-guard.js';
import { checkProgram } from './program-check.js';

/** Stderr kept for the error (its last bytes). */
export const FORMAT_STDERR_BYTES = 4096;
/** The largest output a formatter may produce. */
export const FORMAT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface FormatRequest {
  /** Real path of the file being patched. */
  readonly source: string;
  /** The path shown in messages. */
  readonly display: string;
  readonly root: string;
  /** The guard in force: where tools can write, which the program must not be. */
  readonly guard: PathGuard;
  readonly signal?: AbortSignal | undefined;
}

function failed(spec: FormatterSpec, req: FormatRequest, why: string, details: Record<string, unknown> = {}): HashlineError {
  return new HashlineError('format_failed', `formatter \`${spec.name}\` failed for \`${req.display}\`: ${why}; nothing was written`, {
    details: { filePath: req.display, formatter: spec.name, mode: spec.mode, ...details },
  });
}

/** Kills the program and whatever it started (its process group). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Runs argv with `input` on stdin; resolves to stdout when it exits 0. */
function run(spec: FormatterSpec, req: FormatRequest, argv: string[], input: Uint8Array): Promise<Buffer> {
  const checked = checkProgram(req.guard, argv, req.root);
  if (!checked.ok) {
    const why = checked.reason === 'missing' ? formatterNotFound(checked.what) : formatterRefused(checked.what, checked.reason === 'launcher' ? 'launcher' : 'writable');
    return Promise.reject(failed(spec, req, why, { reason: checked.reason }));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(checked.file, argv.slice(1), {
      cwd: req.root,
      env: checked.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      detached: true,
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = Buffer.alloc(0);
    let done = false;
    const finish = (e: HashlineError | null, value?: Buffer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (e) {
        killGroup(child.pid);
        reject(e);
      } else resolve(value!);
    };
    const stderrTail = () => err.toString('utf8').slice(-FORMAT_STDERR_BYTES);
    const timer = setTimeout(() => finish(failed(spec, req, `it did not finish within ${spec.timeoutMs} ms`, { stderr: stderrTail() })), spec.timeoutMs);
    const onAbort = () => finish(new HashlineError('aborted', 'aborted'));
    req.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') finish(failed(spec, req, formatterNotFound(spec.command[0]!), { reason: 'missing' }));
      else finish(failed(spec, req, `it could not be started: ${e.message}`, { reason: e.code }));
    });
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > FORMAT_MAX_OUTPUT_BYTES) finish(failed(spec, req, `its output exceeded ${FORMAT_MAX_OUTPUT_BYTES} bytes`));
      else out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => {
      err = Buffer.concat([err, c]);
      if (err.length > 2 * FORMAT_STDERR_BYTES) err = err.subarray(err.length - FORMAT_STDERR_BYTES);
    });
    child.on('close', (code, sig) => {
      if (code === 0) finish(null, Buffer.concat(out));
      else finish(failed(spec, req, sig ? `it was killed by ${sig}` : `it exited with status ${code}`, { exitCode: code, stderr: stderrTail() }));
    });
    // a program that does not read its input closes the pipe early: not an error of ours
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

/** The formatted bytes of `candidate`. */
export async function formatCandidate(spec: FormatterSpec, candidate: Uint8Array, req: FormatRequest): Promise<Uint8Array> {
  if (spec.mode === 'stdout') {
    const out = await run(spec, req, formatterArgv(spec, { file: req.source, source: req.source, root: req.root }), candidate);
    if (out.length === 0 && candidate.length > 0) throw failed(spec, req, 'it printed nothing for a non-empty file (is it configured for stdout mode?)');
    return out;
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-format-'));
  try {
    const staged = path.join(dir, path.basename(req.source));
    await fsp.writeFile(staged, candidate, { flag: 'wx', mode: 0o600 });
    await run(spec, req, formatterArgv(spec, { file: staged, source: req.source, root: req.root }), new Uint8Array(0));
    const st = await fsp.lstat(staged).catch(() => null);
    if (!st?.isFile()) throw failed(spec, req, 'the staged copy is gone or no longer a regular file');
    if (st.size > FORMAT_MAX_OUTPUT_BYTES) throw failed(spec, req, `its output exceeded ${FORMAT_MAX_OUTPUT_BYTES} bytes`);
    return await fsp.readFile(staged);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
