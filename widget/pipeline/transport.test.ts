import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { Recorder } from './recorder.ts';
import { Transport } from './transport.ts';

/** When the transport looked into the outbox: each flush does, first. `slow.ms`: how long a look takes; `slow.fails`: it fails. */
const peeks = vi.hoisted(() => [] as number[]);
const slow = vi.hoisted(() => ({ ms: 0, fails: false }));
// An outbox that another tab keeps empty: it delivers every event, so none is confirmed here.
vi.mock('./outbox.ts', () => ({
  Outbox: class {
    enqueue() {}
    settled() {
      return Promise.resolve();
    }
    peek() {
      peeks.push(Date.now());
      if (slow.fails) return Promise.reject(new Error('IndexedDB failed'));
      return slow.ms ? new Promise((resolve) => setTimeout(resolve, slow.ms, [])) : Promise.resolve([]);
    }
  },
}));

const flushDelayMs = 1_000;
const transport = { flushDelayMs, backoff: { baseMs: 5_000, maxMs: 60_000 }, timeoutMs: 0 };
const ctx = { traceId: 't', sessionId: 's', endpoint: 'https://collector.example', writeKey: 'rfw_k' };

beforeEach(() => {
  peeks.length = 0;
  slow.ms = 0;
  slow.fails = false;
  vi.useFakeTimers();
  vi.stubGlobal('addEventListener', () => undefined);
  vi.stubGlobal('navigator', { onLine: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('batching', () => {
  it('sends a full batch at once, and events after it once the batching delay is over, though none was confirmed here', async () => {
    const recorder = new Recorder({ transport }, () => undefined);
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

  it('flushes again after a long flush for events recorded after it looked into the outbox', async () => {
    const recorder = new Recorder({ transport }, () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    const start = Date.now();
    // A look into the outbox that takes 3 s (its open waiting out a hung IndexedDB).
    slow.ms = 3_000;
    recorder.record(ctx, 'copy_answer', { chars: 1 }, Date.now(), true);
    await vi.advanceTimersByTimeAsync(flushDelayMs);
    expect(peeks).toHaveLength(2);
    // Recorded while that flush runs: its own flush, due before that one ends, joins it.
    await vi.advanceTimersByTimeAsync(1_000);
    recorder.record(ctx, 'copy_answer', { chars: 2 }, Date.now(), true);
    slow.ms = 0;
    await vi.advanceTimersByTimeAsync(2_000 + flushDelayMs);
    expect(peeks).toEqual([expect.any(Number), start + flushDelayMs, start + 4_000 + flushDelayMs]);
  });
});

describe('timing the page sets', () => {
  it('reads the timing the page sets after the recorder was made (a late `configure`)', async () => {
    const page: { transport?: unknown } = { transport };
    const recorder = new Recorder(page, () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    page.transport = { flushDelayMs: 5_000 };
    const start = Date.now();
    recorder.record(ctx, 'copy_answer', { chars: 1 }, Date.now(), true);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(peeks).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(peeks).toEqual([expect.any(Number), start + 5_000]);
  });

  it.each([{ baseMs: 0, maxMs: 0 }, { baseMs: 0 }, { maxMs: 0 }, { baseMs: 1, maxMs: 50 }])(
    'keeps the default backoff for a bound under 100 ms (%o): failing flushes are not retried at once, again and again',
    async (backoff) => {
      vi.spyOn(Math, 'random').mockReturnValue(1);
      slow.fails = true;
      new Recorder({ transport: { flushDelayMs: 10, backoff } }, () => undefined);
      await vi.advanceTimersByTimeAsync(4_000);
      // The first flush, then its retry after the default first wait (5 s) at the soonest.
      expect(peeks).toHaveLength(1);
    },
  );
});

/** An outbox of three events for one destination, and what is left in it. */
function threeEvents() {
  let items = [0, 1, 2].map((i) => ({ id: `e${i}`, endpoint: 'https://collector.example', writeKey: 'rfw_k', event: { eventId: `e${i}` } }));
  const outbox = {
    settled: () => Promise.resolve(),
    peek: async (limit: number, skip: (i: unknown) => boolean) => items.filter((i) => !skip(i)).slice(0, limit),
    dropped: async () => 0,
    remove: async (ids: readonly string[]) => void (items = items.filter((i) => !ids.includes(i.id))),
    reportedDropped: async () => undefined,
  };
  return { outbox, left: () => items };
}

describe('batches a proxy refuses as too large (413, an HTML page)', () => {
  it('sends again at once in smaller batches, and drops only an event refused alone', async () => {
    let items = [0, 1, 2, 3, 4].map((i) => ({ id: `e${i}`, endpoint: 'https://collector.example', writeKey: 'rfw_k', event: { eventId: `e${i}` } }));
    const outbox = {
      settled: () => Promise.resolve(),
      peek: async (limit: number, skip: (i: unknown) => boolean) => items.filter((i) => !skip(i)).slice(0, limit),
      dropped: async () => 0,
      remove: async (ids: readonly string[]) => void (items = items.filter((i) => !ids.includes(i.id))),
    };
    const sent: string[][] = [];
    const stored: string[] = [];
    // A proxy that takes at most two events, and never e2 (too large alone).
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const ids = (JSON.parse(init.body as string) as { events: { eventId: string }[] }).events.map((e) => e.eventId);
      sent.push(ids);
      if (ids.length > 2 || ids.includes('e2')) return new Response('<html><h1>413 Request Entity Too Large</h1></html>', { status: 413 });
      stored.push(...ids);
      return Response.json({ results: ids.map((id, index) => ({ index, id, status: 'accepted' })) });
    });
    const t = new Transport(
      outbox as never,
      () => ({ flushDelayMs: 10, backoff: { baseMs: 10_000, maxMs: 60_000 }, timeoutMs: 0 }),
      () => undefined,
    );
    await t.flush();
    expect(sent).toEqual([['e0', 'e1', 'e2', 'e3', 'e4'], ['e0', 'e1'], ['e2', 'e3'], ['e2']]);
    // After an event dropped as too large, the rest go after the destination's backoff, one at a time.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toEqual([['e0', 'e1', 'e2', 'e3', 'e4'], ['e0', 'e1'], ['e2', 'e3'], ['e2'], ['e3'], ['e4']]);
    expect(stored).toEqual(['e0', 'e1', 'e3', 'e4']);
    expect(items).toEqual([]);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(sent).toHaveLength(6);
  });

  it('drops at most one event a backoff when a proxy refuses every body', async () => {
    let items = Array.from({ length: 64 }, (_, i) => ({ id: `e${i}`, endpoint: 'https://collector.example', writeKey: 'rfw_k', event: { eventId: `e${i}` } }));
    const outbox = {
      settled: () => Promise.resolve(),
      peek: async (limit: number, skip: (i: unknown) => boolean) => items.filter((i) => !skip(i)).slice(0, limit),
      dropped: async () => 0,
      remove: async (ids: readonly string[]) => void (items = items.filter((i) => !ids.includes(i.id))),
    };
    let requests = 0;
    vi.stubGlobal('fetch', async () => {
      requests++;
      return new Response('<html>Request Entity Too Large</html>', { status: 413 });
    });
    const t = new Transport(
      outbox as never,
      () => ({ flushDelayMs: 10, backoff: { baseMs: 10_000, maxMs: 60_000 }, timeoutMs: 0 }),
      () => undefined,
    );
    await t.flush();
    // Halved down to one event (64, 32, … 1), which is dropped; the next waits.
    expect(requests).toBe(7);
    expect(items).toHaveLength(63);
  });
});

describe("answers that are not the collector's", () => {
  const item = (id: string, endpoint: string) => ({ id, endpoint, writeKey: 'rfw_k', event: { eventId: id } });

  // A retired endpoint now serving something else; `{"results": []}` or results that answer nothing would have its events deleted unsent.
  it.each(['null', '{"results":{}}', '{"results":[]}', '{"results":[{}]}', '"ok"'])(
    'keeps the events a 200 with %s answered, backs that destination off, and delivers the others in the same flush',
    async (answer) => {
      const items = [item('a1', 'https://other.example'), item('b1', 'https://live.example')];
      const outbox = {
        settled: () => Promise.resolve(),
        peek: async (limit: number, skip: (i: unknown) => boolean) => items.filter((i) => !skip(i)).slice(0, limit),
        dropped: async () => 0,
        remove: async (ids: readonly string[]) => void items.splice(0, items.length, ...items.filter((i) => !ids.includes(i.id))),
      };
      const fetch = vi.fn(async (url: string, init: RequestInit) => {
        if (url.startsWith('https://other.example')) return new Response(answer, { headers: { 'content-type': 'application/json' } });
        const { events } = JSON.parse(init.body as string) as { events: { eventId: string }[] };
        return Response.json({ results: events.map((e, index) => ({ index, id: e.eventId, status: 'accepted' })) });
      });
      vi.stubGlobal('fetch', fetch);
      const warn = vi.fn();
      const t = new Transport(outbox as never, () => ({ flushDelayMs: 10, backoff: { baseMs: 10_000, maxMs: 60_000 }, timeoutMs: 0 }), warn);
      await t.flush();
      expect(items.map((i) => i.id)).toEqual(['a1']);
      expect(warn).not.toHaveBeenCalledWith('flush failed', expect.anything());
      const triesOf = (endpoint: string) => fetch.mock.calls.filter(([url]) => url.startsWith(endpoint)).length;
      expect(triesOf('https://other.example')).toBe(1);
      // Events for the live collector recorded meanwhile go while the other waits its turn (5 to 10 s).
      items.push(item('b2', 'https://live.example'));
      t.added();
      await vi.advanceTimersByTimeAsync(4_000);
      expect(items.map((i) => i.id)).toEqual(['a1']);
      expect(triesOf('https://other.example')).toBe(1);
      await vi.advanceTimersByTimeAsync(6_000);
      expect(triesOf('https://other.example')).toBe(2);
      expect(items.map((i) => i.id)).toEqual(['a1']);
    },
  );
});

describe('refusals', () => {
  /** An outbox of three events, and a fetch that answers `status` with the collector's error `code` until `refusals` ran out. */
  function setUp(status: number, code: string, refusals: number) {
    const { outbox, left } = threeEvents();
    const stored: unknown[] = [];
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      if (refusals-- > 0) return Response.json({ error: { code, message: 'refused', field: code === 'invalid_key' ? 'key' : 'origin' } }, { status });
      const { events } = JSON.parse(init.body as string) as { events: unknown[] };
      stored.push(...events);
      return Response.json({ accepted: events.length, results: events.map(() => ({ status: 'accepted' })) });
    });
    vi.stubGlobal('fetch', fetch);
    const t = new Transport(
      outbox as never,
      () => ({ flushDelayMs: 10, backoff: { baseMs: 1_000, maxMs: 10_000 }, timeoutMs: 0 }),
      () => undefined,
    );
    return { t, fetch, stored, left };
  }

  it('keeps the events of an origin the project does not allow yet, and sends them once it does', async () => {
    const { t, fetch, stored, left } = setUp(403, 'origin_not_allowed', 2);
    await t.flush();
    expect(left()).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(stored).toHaveLength(3);
    expect(left()).toEqual([]);
  });

  it('drops the events of a key the collector does not know, which no retry can change', async () => {
    const { t, fetch, stored, left } = setUp(401, 'invalid_key', 1);
    await t.flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(stored).toEqual([]);
    expect(left()).toEqual([]);
  });
});

describe('destinations', () => {
  const item = (id: string, endpoint: string) => ({ id, endpoint, writeKey: 'rfw_k', event: { eventId: id } });
  /** An outbox of `items`, and a fetch for which `retired` cannot be reached and the rest store everything. */
  function setUp(items: ReturnType<typeof item>[], retired: string, backoff = { baseMs: 10_000, maxMs: 60_000 }) {
    const outbox = {
      peeks: 0,
      settled: () => Promise.resolve(),
      async peek(limit: number, skip: (i: unknown) => boolean) {
        this.peeks++;
        return items.filter((i) => !skip(i)).slice(0, limit);
      },
      dropped: async () => 0,
      remove: async (ids: readonly string[]) => void items.splice(0, items.length, ...items.filter((i) => !ids.includes(i.id))),
      reportedDropped: async () => undefined,
    };
    const fetch = vi.fn(async (url: string, init: RequestInit) => {
      if (url.startsWith(retired)) throw new TypeError('Failed to fetch');
      const { events } = JSON.parse(init.body as string) as { events: unknown[] };
      return Response.json({ accepted: events.length, results: events.map(() => ({ status: 'accepted' })) });
    });
    vi.stubGlobal('fetch', fetch);
    const t = new Transport(
      outbox as never,
      () => ({ flushDelayMs: 10, backoff, timeoutMs: 0 }),
      () => undefined,
    );
    const triesOf = (endpoint: string) => fetch.mock.calls.filter(([url]) => url.startsWith(endpoint)).length;
    return { t, outbox, triesOf };
  }

  it('waits out a backoff longer than a browser timer holds (2^31-1 ms) instead of looking into the outbox again and again', async () => {
    const items = [item('a1', 'https://retired.example')];
    // A first wait of 2.5e9 to 5e9 ms: past what setTimeout holds, which then fires at once.
    const { t, outbox, triesOf } = setUp(items, 'https://retired.example', { baseMs: 5e9, maxMs: 1e10 });
    await t.flush();
    expect(triesOf('https://retired.example')).toBe(1);
    const peeks = outbox.peeks;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(outbox.peeks - peeks).toBe(0);
    expect(triesOf('https://retired.example')).toBe(1);
  });

  it('sends to the other collectors while one cannot be reached, and tries that one again only in its turn', async () => {
    const items = [item('a1', 'https://retired.example'), item('b1', 'https://live.example'), item('a2', 'https://retired.example')];
    const { t, triesOf } = setUp(items, 'https://retired.example');
    await t.flush();
    expect(items.map((i) => i.id)).toEqual(['a1', 'a2']);
    expect(triesOf('https://retired.example')).toBe(1);

    items.push(item('b2', 'https://live.example'));
    t.added();
    await vi.advanceTimersByTimeAsync(10);
    expect(items.map((i) => i.id)).toEqual(['a1', 'a2']);
    expect(triesOf('https://retired.example')).toBe(1);

    await vi.advanceTimersByTimeAsync(10_000); // the first wait is 5 to 10 s
    expect(triesOf('https://retired.example')).toBe(2);
    expect(triesOf('https://live.example')).toBe(2);
  });

  it('forgets the backoff of a destination left with nothing to send', async () => {
    const items = [item('a1', 'https://retired.example')];
    const { t, outbox, triesOf } = setUp(items, 'https://retired.example');
    await t.flush();
    expect(triesOf('https://retired.example')).toBe(1);
    items.length = 0; // dropped for room, say
    await vi.advanceTimersByTimeAsync(10_000);
    const peeks = outbox.peeks;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(outbox.peeks).toBe(peeks);
    expect(triesOf('https://retired.example')).toBe(1);
  });

  it('sends to a destination backing off when the page asks to send now', async () => {
    const items = [item('a1', 'https://retired.example')];
    const { t, triesOf } = setUp(items, 'https://retired.example');
    await t.flush();
    await t.flush();
    expect(triesOf('https://retired.example')).toBe(2);
  });
});

describe('Web Locks', () => {
  /** A fresh module (the page remembers a denial), an outbox whose peek may fail, and a lock manager. */
  async function setUp(
    request: (name: string, opts: unknown, cb: (lock: unknown) => Promise<void>) => Promise<void>,
    peek = async () => [],
    backoff = { baseMs: 1_000, maxMs: 1_000 },
  ) {
    vi.resetModules();
    const { Transport: Fresh } = await import('./transport.ts');
    const locks = { request: vi.fn(request) };
    vi.stubGlobal('navigator', { onLine: true, locks });
    const outbox = { settled: () => Promise.resolve(), peek: vi.fn(peek) };
    const warn = vi.fn();
    const t = new Fresh(outbox as never, () => ({ flushDelayMs: 10, backoff, timeoutMs: 0 }), warn);
    return { t, locks, outbox, warn };
  }

  it('drains without a lock where the browser denies Web Locks (a sandboxed frame), and asks for none again', async () => {
    const { t, locks, outbox, warn } = await setUp(() =>
      Promise.reject(new DOMException('Access to the Locks API is denied in this context.', 'SecurityError')),
    );
    await t.flush();
    await t.flush();
    expect(outbox.peek).toHaveBeenCalledTimes(2);
    expect(locks.request).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('drains without a lock where the page has no Web Locks (an insecure context)', async () => {
    const { t, outbox, warn } = await setUp(() => Promise.resolve());
    vi.stubGlobal('navigator', { onLine: true });
    await t.flush();
    await t.flush();
    expect(outbox.peek).toHaveBeenCalledTimes(2);
    expect(warn).not.toHaveBeenCalled();
  });

  // A drain that throws what a denial would (IndexedDB denied reading) is still the drain's failure.
  it.each(['InvalidStateError', 'SecurityError'])('does not drain again without the lock when the drain holding it failed (%s)', async (name) => {
    const { t, locks, outbox, warn } = await setUp(
      (_name, _opts, cb) => cb({}),
      () => Promise.reject(new DOMException('The drain failed.', name)),
    );
    await t.flush();
    expect(outbox.peek).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('flush failed', expect.any(DOMException));
    await vi.advanceTimersByTimeAsync(1_000); // the retry asks for the lock again
    expect(locks.request).toHaveBeenCalledTimes(2);
    expect(outbox.peek).toHaveBeenCalledTimes(2);
  });

  it('does not drain without the lock when the lock manager fails otherwise than by a denial (the document not fully active), and asks again on the retry', async () => {
    let inactive = true;
    const { t, locks, outbox, warn } = await setUp((_name, _opts, cb) =>
      inactive ? Promise.reject(new DOMException('The document is not fully active.', 'InvalidStateError')) : cb({}),
    );
    await t.flush();
    expect(outbox.peek).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('flush failed', expect.objectContaining({ name: 'InvalidStateError' }));
    inactive = false;
    await vi.advanceTimersByTimeAsync(1_000); // the retry asks for the lock again, and drains holding it
    expect(locks.request).toHaveBeenCalledTimes(2);
    expect(outbox.peek).toHaveBeenCalledTimes(1);
  });

  it('waits longer after each flush that fails in a row, and as at first once one went through', async () => {
    // The longest of each jittered wait: 1, 2, 4 then 8 s.
    vi.spyOn(Math, 'random').mockReturnValue(1);
    let inactive = true;
    const { t, locks } = await setUp(
      (_name, _opts, cb) => (inactive ? Promise.reject(new DOMException('The document is not fully active.', 'InvalidStateError')) : cb({})),
      undefined,
      { baseMs: 1_000, maxMs: 60_000 },
    );
    await t.flush();
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(locks.request).toHaveBeenCalledTimes(4);
    // The fourth failure waits 8 s.
    await vi.advanceTimersByTimeAsync(7_999);
    expect(locks.request).toHaveBeenCalledTimes(4);
    inactive = false;
    await vi.advanceTimersByTimeAsync(1);
    expect(locks.request).toHaveBeenCalledTimes(5);
    inactive = true;
    await t.flush();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(locks.request).toHaveBeenCalledTimes(7);
  });
});
