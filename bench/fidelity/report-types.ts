// The shapes the fidelity reports share: outcome counts per scenario and agent, and a checked goal.

import type { Outcome } from './classify.js';

export type Counts = Record<Outcome, number> & { clear: number; silent: number };

export interface Goal {
  readonly text: string;
  readonly measured: string;
  readonly met: boolean;
}
