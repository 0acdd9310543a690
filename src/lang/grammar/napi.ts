// ast-grep's native module, loaded on first use rather than at start-up (it costs tens of
// milliseconds, and a server answering `tools/list` does not need it).

import { createRequire } from 'node:module';
import type * as Napi from '@ast-grep/napi';

let loaded: typeof Napi | undefined;

export function napi(): typeof Napi {
  loaded ??= createRequire(import.meta.url)('@ast-grep/napi') as typeof Napi;
  return loaded;
}
