/**
 * `npm start`'s way of starting and stopping, for start-stop.test.ts to interrupt at any moment: with
 * SYNC_STEP_S, first a step that runs a command synchronously that long (as `npm start` runs its
 * migrations and makes the dev project with wrangler commands) and fails when the command does; a
 * throwaway collector under wrangler, then a stand-in for the demo that takes DEMO_START_MS to start
 * (first holding the event loop DEMO_BUSY_MS, as the demo's index over a corpus does) and, as it
 * closes, says whether the collector still answers (the demo sends its queued traces then). With
 * INHERIT=1 wrangler writes to the start's own output, as `npm start`'s does.
 */
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLocalCollector } from './local-collector.ts';
import { startStoppably } from './start-stop.ts';

await startStoppably(async (started) => {
  if (process.env.SYNC_STEP_S) {
    console.log('sync step');
    const step = spawnSync('sleep', [process.env.SYNC_STEP_S]);
    if (step.status !== 0) throw new Error(`the sync step failed (${step.signal ?? step.status})`);
  }
  const collector = await started.start(
    (signal) => startLocalCollector({ signal, inherit: process.env.INHERIT === '1' }),
    (collector) => collector.stop(),
  );
  started.watch(collector.process, 'the collector');
  console.log('collector up');
  await started.start(
    async () => {
      const busyUntil = Date.now() + Number(process.env.DEMO_BUSY_MS ?? 0);
      if (Date.now() < busyUntil) console.log('demo busy');
      while (Date.now() < busyUntil);
      await sleep(Number(process.env.DEMO_START_MS ?? 0));
    },
    async () => {
      const answers = await fetch(`${collector.url}/v1/health`).then(
        (r) => r.ok,
        () => false,
      );
      console.log(`demo closed, the collector ${answers ? 'answering' : 'gone'}`);
    },
  );
  console.log('all started');
});
