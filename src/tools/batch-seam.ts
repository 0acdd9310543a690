// A test seam for the mutation batches: with HASHLINE_TEST_BATCH_STEP_MS set (tests only), each
// file of a batch waits that many milliseconds before its change, so a test can cancel a batch,
// or change the disk, between two files of a batch served by a real server process.

export function batchStepDelay(): ((index: number) => Promise<void>) | undefined {
  const ms = Number(process.env.HASHLINE_TEST_BATCH_STEP_MS ?? '');
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  return () => new Promise((resolve) => setTimeout(resolve, ms));
}
