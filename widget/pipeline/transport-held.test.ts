import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Outbox, OutboxItem } from './outbox.ts';
import { Transport } from './transport.ts';

const backoff = { baseMs: 1_000, maxMs: 60_000 };
const item = (id: string, sessionId: string): OutboxItem =>
  ({ id, endpoint: 'https://collector.example', writeKey: 'rfw_k', event: { eventId: id, sessionId } }) as unknown as OutboxItem;

/** An outbox in memory, as the transport uses it. */
function memoryOutbox(items: OutboxItem[]) {
  const removed: string[][] = [];
  const outbox = {
    settled: () => Promise.resolve(),
    dropped: () => Promise.resolve(0),
    peek: (limit: number, skip: (i: OutboxItem) => boolean) => Promise.resolve(items.filter((i) => !skip(i)).slice(0, limit)),
    remove: (ids: readonly string[]) => {
      removed.push([...ids]);
      items = items.filter((i) => !ids.includes(i.id));
      return Promise.resolve();
    },
  };
  return { outbox: outbox as unknown as Outbox, removed, left: () => items.map((i) => i.id) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('events the collector held back for their session', () => {
  it('keeps them in the outbox, unsettled, and sends them again after the Retry-After, settling the rest of their batch', async () => {
    const { outbox, removed, left } = memoryOutbox([item('e1', 'flood'), item('e2', 'quiet'), item('e3', 'flood')]);
    const bodies: string[][] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const events = (JSON.parse(init.body as string) as { events: { eventId: string; sessionId: string }[] }).events;
      bodies.push(events.map((e) => e.eventId));
      if (bodies.length > 1) return Response.json({ results: events.map((e, index) => ({ index, id: e.eventId, status: 'accepted' })), rejected: 0 });
      const results = events.map((e, index) =>
        e.sessionId === 'flood'
          ? { index, id: e.eventId, status: 'rate_limited', field: `events[${index}].sessionId`, reason: 'slow', retryAfter: 3 }
          : { index, id: e.eventId, status: 'accepted' },
      );
      return Response.json(
        { error: { code: 'rate_limited', message: 'slow' }, accepted: 1, duplicate: 0, rejected: 0, rateLimited: 2, results },
        { status: 429, headers: { 'retry-after': '3' } },
      );
    });
    const warn = vi.fn();
    const transport = new Transport(outbox, () => ({ flushDelayMs: 0, backoff, timeoutMs: 0 }), warn);
    const settled: string[][] = [];
    transport.onSettled = (ids) => settled.push([...ids]);
    await transport.flush();
    expect(bodies).toEqual([['e1', 'e2', 'e3']]);
    expect(settled).toEqual([['e2']]);
    expect(left()).toEqual(['e1', 'e3']);
    // Not before the collector's 3 s (longer than the first backoff).
    await vi.advanceTimersByTimeAsync(2_999);
    expect(bodies).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(bodies).toEqual([
      ['e1', 'e2', 'e3'],
      ['e1', 'e3'],
    ]);
    expect(settled).toEqual([['e2'], ['e1', 'e3']]);
    expect(removed).toEqual([['e2'], ['e1', 'e3']]);
    expect(left()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('reports its drop count again, with what was dropped since, while the event the collector keeps it under is held back', async () => {
    let items = [item('e1', 'flood'), item('e2', 'quiet')];
    let lost = 5;
    const reported: number[] = [];
    const outbox = {
      settled: () => Promise.resolve(),
      dropped: () => Promise.resolve(lost),
      peek: (limit: number, skip: (i: OutboxItem) => boolean) => Promise.resolve(items.filter((i) => !skip(i)).slice(0, limit)),
      remove: (ids: readonly string[], count = 0) => {
        items = items.filter((i) => !ids.includes(i.id));
        lost -= count;
        return Promise.resolve();
      },
    } as unknown as Outbox;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { events: { eventId: string; sessionId: string }[]; dropped?: number };
      reported.push(body.dropped ?? 0);
      const first = reported.length === 1;
      const results = body.events.map((e, index) =>
        first && e.sessionId === 'flood' ? { index, id: e.eventId, status: 'rate_limited', retryAfter: 1 } : { index, id: e.eventId, status: 'accepted' },
      );
      return Response.json({ results }, first ? { status: 429, headers: { 'retry-after': '1' } } : {});
    });
    const transport = new Transport(outbox, () => ({ flushDelayMs: 0, backoff, timeoutMs: 0 }), vi.fn());
    await transport.flush();
    // e2 was taken, but the report is kept under e1, held back: the count stays, and three more are lost meanwhile.
    expect(lost).toBe(5);
    lost += 3;
    await vi.advanceTimersByTimeAsync(1_000);
    // Sent again with e1, the running total: the collector keeps the most any sending said, 8.
    expect(reported).toEqual([5, 8]);
    expect(lost).toBe(0);
    expect(items).toEqual([]);
  });

  it('keeps the whole batch after a 429 without results, as before, and throws nothing for results it cannot use', async () => {
    const { outbox, left } = memoryOutbox([item('e1', 'flood')]);
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: { code: 'rate_limited', message: 'slow', field: 'session' } }, { status: 429, headers: { 'retry-after': '3' } }),
    );
    const transport = new Transport(
      outbox,
      () => ({ flushDelayMs: 0, backoff, timeoutMs: 0 }),
      () => undefined,
    );
    await expect(transport.flush()).resolves.toBeUndefined();
    expect(left()).toEqual(['e1']);
    vi.stubGlobal('fetch', async () => Response.json({ results: [{ index: 7, status: 'rate_limited' }], rejected: 0 }, { status: 429 }));
    await vi.advanceTimersByTimeAsync(3_000);
    await expect(transport.flush()).resolves.toBeUndefined();
    expect(left()).toEqual(['e1']);
  });
});
