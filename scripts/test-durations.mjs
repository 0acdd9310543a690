// A node:test reporter that writes one JSON line per test file: its path and how long its process
// ran (the runner's file-level `test:complete` event). scripts/test.mjs reads these to print the
// slowest files and to start the slow files first on the next run.
export default async function* durations(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { data } = event;
    if (data.nesting !== 0 || data.name !== data.file) continue;
    yield `${JSON.stringify({ file: data.file, ms: Math.round(data.details.duration_ms), passed: data.details.passed })}\n`;
  }
}
