// A test that needs something this machine lacks (root, a tmpfs mount, a grammar, `unshare`...):
// locally it skips with a printed notice; under CI (CI=true, where .ci/run installs everything and
// runs as root) it fails with the reason instead, so a skip never hides a part that did not run.

import type { TestContext } from 'node:test';

export const UNDER_CI = process.env.CI === 'true';

/** Skips the running test with `why`, or, under CI, fails it; the caller returns right after. */
export function skipOrFail(t: TestContext, why: string): void {
  if (UNDER_CI) throw new Error(`CI=true but ${why}: CI must provide it`);
  t.diagnostic(`skipped: ${why}`);
  t.skip(why);
}

