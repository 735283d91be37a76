import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FLUSH_TIMEOUT_MS, TraceClient } from './index.ts';

afterEach(() => {
  vi.useRealTimers();
});

const trace = () => ({ traceId: crypto.randomUUID(), query: 'q', retrievedChunks: [], answer: 'a', model: 'm', createdAt: Date.now() });

/** A client whose collector never answers and whose attempts have no deadline of their own. */
const hungClient = () =>
  new TraceClient({ endpoint: 'http://collector.test', serverKey: 'rfs_x', flushIntervalMs: 0, timeoutMs: 0, fetch: () => new Promise<Response>(() => {}) });

describe('flush() without timeoutMs', () => {
  it('gives up after DEFAULT_FLUSH_TIMEOUT_MS (20 s), within a shutdown grace period, failing what is unanswered', async () => {
    vi.useFakeTimers();
    expect(DEFAULT_FLUSH_TIMEOUT_MS).toBe(20_000);
    const client = hungClient();
    const result = client.logTrace(trace());
    let flushed = false;
    void client.flush().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(DEFAULT_FLUSH_TIMEOUT_MS - 1);
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(flushed).toBe(true);
    expect(await result).toMatchObject({ status: 'failed', reason: 'unanswered when flush gave up after 20000 ms' });
  });

  it('waits however long the retries take when given Infinity', async () => {
    vi.useFakeTimers();
    const client = hungClient();
    void client.logTrace(trace());
    let flushed = false;
    void client.flush({ timeoutMs: Number.POSITIVE_INFINITY }).then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(flushed).toBe(false);
    // Ends it, so nothing is left waiting.
    const ended = client.flush({ timeoutMs: 1 });
    await vi.advanceTimersByTimeAsync(1);
    await ended;
  });

  it('waits however long the retries take when given 0, as the client’s own timeoutMs of 0 does', async () => {
    vi.useFakeTimers();
    const client = hungClient();
    const result = client.logTrace(trace());
    let flushed = false;
    void client.flush({ timeoutMs: 0 }).then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(flushed).toBe(false);
    const ended = client.flush({ timeoutMs: 1 });
    await vi.advanceTimersByTimeAsync(1);
    await ended;
    // Sent, and unanswered when the later flush gave up: not failed unsent by the flush given 0.
    expect(await result).toMatchObject({ status: 'failed', reason: 'unanswered when flush gave up after 1 ms' });
  });
});
