// A node:test reporter that writes one JSON line per test file: its path and how long its process
// ran (the runner's file-level `test:complete` event). scripts/test.mjs reads these to print the
// slowest files and to start the slow files first on the next run.
import path from 'node:path';

export default async function* durations(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { data } = event;
    // the file's own event: named by its path (absolute on Node 20, relative to the working directory on 22+)
    if (data.nesting !== 0 || data.file === undefined || path.resolve(data.name) !== data.file) continue;
    yield `${JSON.stringify({ file: data.file, ms: Math.round(data.details.duration_ms), passed: data.details.passed })}\n`;
  }
}
