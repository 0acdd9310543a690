// Builds a real engine over a directory, as the CLI does.

import { mergeConfig, type ConfigFile } from '../../src/core/config.js';
import { createEngine, type Engine } from '../../src/tools/engine.js';

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
