// One measurement, not a test: how long a small PUT of a file waits while another client uploads
// 32 MiB to the same file at about 8 MiB/s (a slow link). Before the body was spooled ahead of the
// lock, the second PUT waited for the whole upload; now it waits only for the first PUT's commit.
// Run: npm run bench:put-wait

import { q, startDaemon } from '../../test/http/harness.js';

const MiB = 1024 * 1024;
const d = await startDaemon({ files: { 'f.bin': 'old\n' } });
try {
  let sent = 0;
  const slow = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (sent >= 32 * MiB) return c.close();
      await new Promise((r) => setTimeout(r, 125)); // 1 MiB per 125 ms
      sent += MiB;
      c.enqueue(new Uint8Array(MiB));
    },
  });
  const big = d.call(`/v1/fs/file?${q({ path: 'f.bin' })}`, { method: 'PUT', body: slow });
  while (sent < 2 * MiB) await new Promise((r) => setTimeout(r, 10));
  const t0 = performance.now();
  const small = await d.call(`/v1/fs/file?${q({ path: 'f.bin' })}`, { method: 'PUT', body: 'small\n' });
  const waited = performance.now() - t0;
  const sentWhenSmallDone = sent;
  const bigStatus = (await big).status;
  console.log(JSON.stringify({ smallStatus: small.status, smallWaitedMs: Math.round(waited), bigStatus, bigMiBSentWhenSmallDone: sentWhenSmallDone / MiB }));
} finally {
  await d.close();
}
