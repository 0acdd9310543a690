// How `npm test` spreads the stress suite's parts over the files of test/stress/, so they run side
// by side: the kill -9 trials alone, the server parts together, every other part (a new one too) in
// stress-short.test.ts.

import { STRESS_PARTS, type StressPart } from '../../test-stress/lib/suite.js';

export const KILL_PARTS: readonly StressPart[] = ['kill-trials'];
export const SERVER_PARTS: readonly StressPart[] = ['history-kill', 'fuzz', 'daemon-load'];
export const OTHER_PARTS: readonly StressPart[] = STRESS_PARTS.filter((p) => !KILL_PARTS.includes(p) && !SERVER_PARTS.includes(p));
