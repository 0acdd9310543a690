// What each entry of a file_patch batch asks for, checked before anything is read: a new patch
// (an explicit strategy with the operations of that strategy, previewed or committed) or the commit
// of a preview receipt (which carries the strategy and operations, so it takes none of them). No
// default strategy and no fallback from one strategy to the other.

import type { AiderBlock } from '../../../core/aider/types.js';
import type { PatchStrategy } from '../../../core/config/config-schema.js';
import { HashlineError } from '../../../core/errors/errors.js';
import * as msg from '../../../core/messages/patch.js';
import type { SqlSelection } from '../../../core/sql/sql-selection.js';
import { hasLoneSurrogate } from '../../../core/text/text-codec.js';
import type { AstRule } from './patch-strategy.js';

export interface Chattr {
  readonly chmod?: number | undefined;
  readonly chown?: { readonly uid: number; readonly gid: number } | undefined;
}

export type { SqlSelection };

export interface PatchEntry {
  readonly patchStrategy?: PatchStrategy | undefined;
  readonly astRules?: readonly AstRule[] | undefined;
  readonly aiderBlocks?: readonly AiderBlock[] | undefined;
  readonly expectedSha256?: string | undefined;
  readonly chattr?: Chattr | undefined;
  readonly preview?: boolean | undefined;
  readonly previewReceipt?: string | undefined;
  readonly sql?: SqlSelection | undefined;
}

export type PatchPlan =
  | { readonly kind: 'patch'; readonly preview: boolean; readonly strategy: 'ast'; readonly rules: readonly AstRule[] }
  | { readonly kind: 'patch'; readonly preview: boolean; readonly strategy: 'aider_block'; readonly blocks: readonly AiderBlock[] }
  | { readonly kind: 'receipt'; readonly receipt: string };

export function planEntry(filePath: string, e: PatchEntry): PatchPlan {
  if (e.previewReceipt !== undefined) {
    if (e.patchStrategy !== undefined || e.astRules !== undefined || e.aiderBlocks !== undefined || e.preview !== undefined || e.sql !== undefined) {
      throw new HashlineError('patch_strategy_arguments', msg.receiptArguments(filePath), { details: { filePath } });
    }
    return { kind: 'receipt', receipt: e.previewReceipt };
  }
  if (e.patchStrategy === undefined) throw new HashlineError('patch_strategy_required', msg.strategyRequired(filePath), { details: { filePath } });
  const texts = [...(e.aiderBlocks ?? []).flatMap((b) => [b.search, b.replace]), ...(e.astRules ?? []).flatMap((r) => [r.pattern, r.fix])];
  if (texts.some(hasLoneSurrogate)) {
    throw new HashlineError('invalid_arguments', `an operation for \`${filePath}\` holds an unpaired UTF-16 surrogate, which has no UTF-8 form`, { details: { filePath } });
  }
  const preview = e.preview === true;
  if (e.patchStrategy === 'ast') {
    if (!e.astRules?.length || e.aiderBlocks !== undefined) {
      throw new HashlineError('patch_strategy_arguments', msg.strategyArguments(filePath, 'ast'), { details: { filePath, strategy: 'ast' } });
    }
    return { kind: 'patch', preview, strategy: 'ast', rules: e.astRules };
  }
  if (!e.aiderBlocks?.length || e.astRules !== undefined) {
    throw new HashlineError('patch_strategy_arguments', msg.strategyArguments(filePath, 'aider_block'), { details: { filePath, strategy: 'aider_block' } });
  }
  return { kind: 'patch', preview, strategy: 'aider_block', blocks: e.aiderBlocks };
}
