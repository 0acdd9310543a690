// Builds a real engine over a directory, as the CLI does; the call context a tool's run takes;
// and a sandbox-plus-engine setup whose sandbox is removed after each test.

import { afterEach } from 'node:test';
import { mergeConfig, type ConfigFile } from '../../src/core/config/config.js';
import { createEngine, type Engine } from '../../src/tools/engine.js';
import type { CallContext } from '../../src/tools/tool.js';
import { makeSandbox, type Sandbox } from './tmp-tree.js';

/** A fresh call context: never aborted, progress ignored. */
export const callContext = (): CallContext => ({ signal: new AbortController().signal, progress: () => undefined });

/**
 * Registers the cleanup (after each test) and returns `setup(files)`: a sandbox holding `files`
 * and an engine over it. Call at the top level of a test file.
 */
export function sandboxedEngines(): (files: Record<string, string | Uint8Array>, lists?: Parameters<typeof engineFor>[1]) => Promise<{ sb: Sandbox; engine: Engine }> {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.cleanup();
    sb = undefined;
  });
  return async (files, lists) => {
    sb = await makeSandbox(files);
    return { sb, engine: await engineFor(sb.root, lists) };
  };
}

export async function engineFor(
  root: string,
  lists: { allow?: string[]; block?: string[]; readAllow?: string[]; readBlock?: string[] } = {},
  file: ConfigFile = {},
): Promise<Engine> {
  return createEngine(
    mergeConfig(
      { root, allow: lists.allow ?? [], block: lists.block ?? [], readAllow: lists.readAllow ?? [], readBlock: lists.readBlock ?? [] },
      file,
    ),
  );
}
