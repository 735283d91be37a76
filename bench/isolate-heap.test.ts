import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyMigratedD1 } from '../scripts/local-collector.ts';
import { sampleHeap, sampleIsolateHeap, workerdIsolates } from './isolate-heap.ts';
import { startBenchDev, workerProcess } from './nightly/drive.ts';

describe("the Worker isolate's heap, read through its inspector", () => {
  it('sees the heap a request grows', { timeout: 90_000 }, async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-heap-'));
    copyMigratedD1(persistTo);
    const server = await startBenchDev({ persistTo, logLevel: 'warn' });
    try {
      const heap = await sampleIsolateHeap(server.inspectorPort!);
      await heap.sampleNow();
      const idle = heap.peak();
      expect(idle.usedMb).toBeGreaterThan(0.5);
      expect(idle.totalMb).toBeGreaterThanOrEqual(idle.usedMb);
      // Requests allocate in the isolate: the largest heap seen can only grow, and a reading can be asked for.
      for (let i = 0; i < 200; i++) await fetch(`${server.url}/v1/health`);
      await heap.sampleNow();
      const busy = heap.peak().usedMb;
      expect(busy).toBeGreaterThanOrEqual(idle.usedMb);
      expect(heap.windowPeakMb()).toBeGreaterThan(0.5);
      heap.stop();

      // A forced collection, served when the isolate next runs: what stays in use is live data,
      // no more than the heap those requests left (the same when V8 had collected it just before).
      const live = await sampleIsolateHeap(server.inspectorPort!, { collectEveryMs: 200 });
      await new Promise((r) => setTimeout(r, 300));
      await fetch(`${server.url}/v1/health`);
      await live.sampleNow();
      live.stop();
      expect(live.peak().liveMb).toBeGreaterThan(0.1);
      expect(live.peak().liveMb).toBeLessThanOrEqual(busy);

      // The process's own inspector lists every isolate, the local D1's among them, and their heaps
      // can be read too: found through /proc, so on Linux, where the benchmarks run.
      if (process.platform !== 'linux') return;
      const isolates = await workerdIsolates(workerProcess(server).pid);
      expect(isolates.map((t) => t.id)).toEqual(expect.arrayContaining([expect.stringMatching(/^core:user:/), expect.stringMatching(/^d1:/)]));
      const d1 = await sampleHeap(isolates.find((t) => t.id.startsWith('d1:'))!.webSocketDebuggerUrl);
      await d1.sampleNow();
      expect(d1.peak().usedMb).toBeGreaterThan(0.1);
      expect(d1.peak().totalMb).toBeGreaterThanOrEqual(d1.peak().usedMb);
      d1.stop();
    } finally {
      await server.stop();
      rmSync(persistTo, { recursive: true, force: true });
    }
  });
});
