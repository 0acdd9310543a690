// Debian's Chromium driven by playwright-core, for the console's browser tests. Without
// /usr/bin/chromium the tests skip with a printed notice; under CI (CI=true, where .ci/run installs
// it) a missing browser is a failure instead. Launched headless, as root-safe (--no-sandbox), with
// background networking off, so a test run talks to nothing but loopback.

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-first-run',
  '--disable-quic',
  '--metrics-recording-only',
];

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `Chromium is not installed (${CHROMIUM}); apt-get install chromium`;
}

/**
 * The `skip` option for a test that needs the browser: false when it is there; under CI a missing
 * browser throws (a skip would hide it); locally the reason, printed once.
 */
export function skipWithoutBrowser(): false | string {
  const why = browserMissing();
  if (why === undefined) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${why}: .ci/run must install it`);
  process.stdout.write(`# skipping browser tests: ${why}\n`);
  return why;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
