import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { Recorder } from './recorder.ts';

/** When the transport looked into the outbox: each flush does, first. */
const peeks = vi.hoisted(() => [] as number[]);
// An outbox that another tab keeps empty: it delivers every event, so none is confirmed here.
vi.mock('./outbox.ts', () => ({
  Outbox: class {
    enqueue() {}
    settled() {
      return Promise.resolve();
    }
    peek() {
      peeks.push(Date.now());
      return Promise.resolve([]);
    }
  },
}));

const flushDelayMs = 1_000;
const transport = { flushDelayMs, backoff: { baseMs: 5_000, maxMs: 60_000 }, timeoutMs: 0 };
const ctx = { traceId: 't', sessionId: 's', endpoint: 'https://collector.example', writeKey: 'rfw_k' };

beforeEach(() => {
  peeks.length = 0;
  vi.useFakeTimers();
  vi.stubGlobal('addEventListener', () => undefined);
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('batching', () => {
  it('sends a full batch at once, and events after it once the batching delay is over, though none was confirmed here', async () => {
    const recorder = new Recorder({ warn: () => undefined, transport });
    await vi.advanceTimersByTimeAsync(0); // the outbox left by earlier visits
    const record = (i: number) => recorder.record(ctx, 'copy_answer', { chars: i }, Date.now(), true);
    for (let i = 0; i < MAX_EVENTS_PER_BATCH - 1; i++) record(i);
    await vi.advanceTimersByTimeAsync(0);
    expect(peeks).toHaveLength(1);
    record(MAX_EVENTS_PER_BATCH);
    await vi.advanceTimersByTimeAsync(0);
    expect(peeks).toHaveLength(2);

    const start = Date.now();
    record(MAX_EVENTS_PER_BATCH + 1);
    await vi.advanceTimersByTimeAsync(flushDelayMs - 1);
    expect(peeks).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(peeks).toEqual([expect.any(Number), expect.any(Number), start + flushDelayMs]);
  });
});
