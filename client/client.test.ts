import { exports } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { bearer, call, event, newProject, trace } from '../collector/test/fixtures.ts';
import { createReranker, type EventResult, TraceClient, type TraceResult } from './index.ts';

const collector = (req: Request) => exports.default.fetch(req);
const fast = { baseMs: 1, maxMs: 5 };

type Answer = (r: Request) => Promise<Response>;

/**
 * A client of a new project whose first requests get `answers` in turn, and the real collector
 * after them; `calls()` counts every request.
 */
async function scriptedClient(answers: Answer[], options: Partial<ConstructorParameters<typeof TraceClient>[0]> = {}) {
  const p = await newProject();
  let calls = 0;
  const client = new TraceClient({
    endpoint: 'http://collector.test',
    serverKey: p.keys.server,
    backoff: fast,
    ...options,
    fetch: (r) => (answers[calls++] ?? collector)(r),
  });
  return { p, client, calls: () => calls };
}

/**
 * A client of a new project whose requests the collector does not answer until the test says so:
 * `held` lists every request started, in order, each with its number of traces and `answer()`, which
 * passes it on to the real collector; `inFlight()` counts those whose answer has not come back yet. No timeout: a
 * request left unanswered stays on its way.
 */
async function heldClient(options: Partial<ConstructorParameters<typeof TraceClient>[0]>) {
  const p = await newProject();
  const held: { size: number; answer: () => void }[] = [];
  let done = 0;
  const client = new TraceClient({
    endpoint: 'http://collector.test',
    serverKey: p.keys.server,
    flushIntervalMs: 60_000,
    timeoutMs: 0,
    ...options,
    fetch: async (r) => {
      const size = ((await r.clone().json()) as unknown[]).length;
      await new Promise<void>((answer) => held.push({ size, answer }));
      const res = await collector(r);
      done++;
      return res;
    },
  });
  return { client, held, inFlight: () => held.length - done };
}

/** Time for a request that should not start to have started, were it going to. */
const settleALittle = () => new Promise((r) => setTimeout(r, 30));

/** Logs one trace and flushes: the trace, and what became of it. */
async function logOne(client: TraceClient) {
  const t = trace();
  const result = client.logTrace(t);
  await client.flush();
  return { t, result: await result };
}

describe('TraceClient against the real collector', () => {
  it('batches traces, and each promise says what became of its trace', async () => {
    const p = await newProject();
    let requests = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      batchSize: 3,
      fetch: (r) => {
        requests++;
        return collector(r);
      },
    });
    const traces = [trace(), trace(), trace(), trace()];
    const bad = { ...trace(), createdAt: 5 };
    const results = await Promise.all([...traces.map((t) => client.logTrace(t)), client.logTrace(bad), client.flush().then(() => null)]);
    expect(results.slice(0, 4).map((r) => r!.status)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
    // Refused before it is sent, named as the caller knows it.
    expect(results[4]).toMatchObject({ traceId: bad.traceId, status: 'rejected', field: 'trace.createdAt' });
    expect(requests).toBe(2);
    const stored = await call(`/v1/traces/${traces[3]!.traceId}`, { headers: bearer(p.keys.admin) });
    expect(stored.status).toBe(200);
  });

  it('works with its methods taken off it (`const { logTrace, flush } = client`), as the reranker does', async () => {
    const p = await newProject();
    const { logTrace, logEvent, flush } = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector });
    const t = trace();
    const results = await Promise.all([
      logTrace(t),
      logEvent({ traceId: t.traceId, sessionId: 's1', signalType: 'regenerate', detail: { gapMs: 4_000 } }),
      flush(),
    ]);
    expect(results.slice(0, 2).map((r) => r?.status)).toEqual(['accepted', 'accepted']);
  });

  it('retries 5xx, 429 and network errors, then stores exactly once', async () => {
    const { p, client, calls } = await scriptedClient([
      () => Promise.reject(new TypeError('connection refused')),
      async () => new Response('{"error":{"code":"internal","message":"boom"}}', { status: 500 }),
      async () => new Response('{"error":{"code":"rate_limited","message":"slow"}}', { status: 429, headers: { 'retry-after': '0' } }),
    ]);
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(calls()).toBe(4);
    // A second client retrying the same trace finds it stored.
    const again = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector });
    const dup = again.logTrace(t);
    await again.flush();
    expect(await dup).toEqual({ traceId: t.traceId, status: 'duplicate' });
  });

  it('gives up after its attempts, reporting failure without throwing', async () => {
    const errors: (TraceResult | EventResult)[] = [];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      maxAttempts: 3,
      backoff: fast,
      fetch: () => Promise.reject(new TypeError('offline')),
      onError: (r) => errors.push(r),
    });
    const t = trace();
    const result = client.logTrace(t);
    await client.flush();
    expect(await result).toEqual({ traceId: t.traceId, status: 'failed', reason: 'network: offline, to http://collector.test/v1/traces' });
    expect(errors).toHaveLength(1);
  });

  it("says why a fetch failed and where it went, not undici's bare 'fetch failed'", async () => {
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:8787') });
    const client = new TraceClient({ endpoint: 'http://127.0.0.1:8787', serverKey: 'rfs_x', maxAttempts: 1, fetch: () => Promise.reject(refused) });
    const t = trace();
    const result = client.logTrace(t);
    await client.flush();
    expect(await result).toEqual({
      traceId: t.traceId,
      status: 'failed',
      reason: 'network: fetch failed (connect ECONNREFUSED 127.0.0.1:8787), to http://127.0.0.1:8787/v1/traces',
    });
  });

  it('does not retry a request the collector refused as wrong (401)', async () => {
    let calls = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_unknown',
      backoff: fast,
      fetch: (r) => {
        calls++;
        return collector(r);
      },
    });
    const result = client.logTrace(trace());
    await client.flush();
    expect(await result).toMatchObject({ status: 'failed', reason: expect.stringContaining('HTTP 401') });
    expect(calls).toBe(1);
  });

  it("retries an attempt the collector leaves unanswered past the timeout, and any answer that is not the collector's", async () => {
    const { client, calls } = await scriptedClient(
      [
        (r) => new Promise<Response>((_, reject) => r.signal.addEventListener('abort', () => reject(new Error('timed out')))),
        async () => new Response('<html>Sign in to the Wi-Fi</html>', { status: 200 }),
        // A proxy asking for its own sign-in, and a firewall's refusal page: not the collector refusing the trace.
        async () => new Response('<html>Proxy authentication required</html>', { status: 407 }),
        async () => new Response('<html>Blocked by policy</html>', { status: 403 }),
      ],
      // Long enough for the real collector to answer the last attempt on a busy machine.
      { timeoutMs: 1_000 },
    );
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(calls()).toBe(5);
  });

  it('retries an attempt left unanswered past the timeout even when the fetch given ignores the abort, or its answer never ends', async () => {
    const { client, calls } = await scriptedClient(
      [
        // A binding or wrapper that never looks at the request's signal.
        () => new Promise<Response>(() => {}),
        // Headers, then a body that never comes.
        async () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { status: 200 }),
      ],
      { timeoutMs: 1_000 },
    );
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(calls()).toBe(3);
  });

  it("retries a JSON refusal that is not in the collector's error shape (a gateway's), as any other server's answer", async () => {
    const { client, calls } = await scriptedClient([
      async () => Response.json({ error: 'Forbidden by gateway policy' }, { status: 403 }),
      async () => Response.json({ error: { status: 404, message: 'no route' } }, { status: 404 }),
    ]);
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(calls()).toBe(3);
  });

  it("retries a 200 whose results do not answer the batch (another service at the endpoint), as any answer that is not the collector's", async () => {
    const { client, calls } = await scriptedClient([
      async () => Response.json({ results: [] }),
      // One entry for a batch of one, but not the collector's: no index, no status.
      async () => Response.json({ results: [{ ok: true }] }),
    ]);
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(calls()).toBe(3);
  });

  it("fails, naming the endpoint, a trace whose every answer was a 200 that is not the collector's, and reports it once", async () => {
    const errors: (TraceResult | EventResult)[] = [];
    let calls = 0;
    const client = new TraceClient({
      endpoint: 'http://search.example.com/api',
      serverKey: 'rfs_x',
      maxAttempts: 3,
      backoff: fast,
      // Whatever JSON it is, `null` included.
      fetch: async () => (++calls === 3 ? Response.json(null) : Response.json({ results: [] })),
      onError: (r) => errors.push(r),
    });
    const { t, result } = await logOne(client);
    expect(result).toEqual({
      traceId: t.traceId,
      status: 'failed',
      reason: "HTTP 200 from http://search.example.com/api/v1/traces, not the collector's answer",
    });
    expect(calls).toBe(3);
    expect(errors).toEqual([result]);
  });

  it('flushes what is logged while it waits for a batch in flight, so nothing is left behind at shutdown', async () => {
    const p = await newProject();
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let calls = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      flushIntervalMs: 60_000,
      fetch: async (r) => {
        if (calls++ === 0) await held;
        return collector(r);
      },
    });
    const [a, b] = [trace(), trace()];
    const first = client.logTrace(a);
    const flushed = client.flush();
    // Another request's trace, logged while the first batch is on its way.
    const second = client.logTrace(b);
    release();
    await flushed;
    expect(await first).toEqual({ traceId: a.traceId, status: 'accepted' });
    const pending = new Promise((r) => setTimeout(() => r('still waiting'), 50));
    expect(await Promise.race([second, pending])).toEqual({ traceId: b.traceId, status: 'accepted' });
  });

  it("gives up at flush's timeoutMs on what the collector has not answered: failed, told to onError, its request aborted and none queued sent", async () => {
    const p = await newProject();
    const errors: (TraceResult | EventResult)[] = [];
    const signals: AbortSignal[] = [];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      batchSize: 1,
      maxInFlight: 1,
      timeoutMs: 0,
      // A collector that never answers (and a fetch that ignores the abort).
      fetch: (r) => {
        signals.push(r.signal);
        return new Promise<Response>(() => {});
      },
      onError: (r) => errors.push(r),
    });
    const [onItsWay, waiting] = [trace(), trace()];
    const results = [client.logTrace(onItsWay), client.logTrace(waiting)];
    const event = client.logEvent({ traceId: onItsWay.traceId, sessionId: 'shutdown-session', signalType: 'regenerate', detail: { gapMs: 1 } });
    const started = Date.now();
    await client.flush({ timeoutMs: 50 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await Promise.all(results)).toEqual([
      { traceId: onItsWay.traceId, status: 'failed', reason: 'unanswered when flush gave up after 50 ms' },
      { traceId: waiting.traceId, status: 'failed', reason: 'not sent: flush gave up after 50 ms' },
    ]);
    expect(await event).toMatchObject({ status: 'failed', reason: 'unanswered when flush gave up after 50 ms' });
    expect(errors).toHaveLength(3);
    // One request of traces and one of events started; both aborted, and the trace waiting never sent.
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('stops retrying what a flush gave up on, naming why its last attempt failed, and sends what is logged afterwards as before', async () => {
    // A collector down: 503, and a retry a minute away.
    const { p, client, calls } = await scriptedClient([async () => new Response('<html>Service Unavailable</html>', { status: 503 })], {
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    const t = trace();
    const result = client.logTrace(t);
    await client.flush({ timeoutMs: 50 });
    expect(await result).toEqual({
      traceId: t.traceId,
      status: 'failed',
      reason: "unanswered when flush gave up after 50 ms, the last attempt's HTTP 503 from http://collector.test/v1/traces, not the collector's answer",
    });
    await settleALittle();
    expect(calls()).toBe(1);
    // Logged again once the collector is back, it is stored; and the flush without a deadline waits as before.
    const again = client.logTrace(t);
    await client.flush();
    expect(await again).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect((await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).status).toBe(200);
    await expect(client.flush({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be a number from 0 to 2147483647, not -1/);
  });

  it('keeps at most maxInFlight requests on their way while the collector does not answer, sending the batches waiting as each settles', async () => {
    const { client, held, inFlight } = await heldClient({ batchSize: 1, maxInFlight: 2 });
    const traces = Array.from({ length: 5 }, () => trace());
    const results = traces.map((t) => client.logTrace(t));
    await vi.waitFor(() => expect(held).toHaveLength(2));
    await settleALittle();
    expect(held).toHaveLength(2);
    // One answered: the next batch waiting goes, and still no more than two are on their way.
    held[0]!.answer();
    await vi.waitFor(() => expect(held).toHaveLength(3));
    await settleALittle();
    expect(inFlight()).toBe(2);
    const flushed = client.flush();
    for (let i = 1; i < 5; i++) {
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(i));
      expect(inFlight()).toBeLessThanOrEqual(2);
      held[i]!.answer();
    }
    await flushed;
    expect(await Promise.all(results)).toEqual(traces.map((t) => ({ traceId: t.traceId, status: 'accepted' })));
    expect(held).toHaveLength(5);
  });

  it('fails at once, told to onError, what is logged past maxQueuedBytes while the collector does not answer, and takes more once the queue drains', async () => {
    const traces = Array.from({ length: 5 }, () => trace());
    const bytes = Math.max(...traces.map((t) => JSON.stringify(t).length));
    const failures: TraceResult[] = [];
    const { client, held } = await heldClient({
      batchSize: 1,
      maxInFlight: 1,
      maxQueuedBytes: 2.5 * bytes,
      onError: (r) => void failures.push(r as TraceResult),
    });
    // The first goes; two wait within the bound; the fourth would take the queue past it.
    const results = traces.slice(0, 4).map((t) => client.logTrace(t));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    const fourth = await Promise.race([results[3]!, settleALittle().then(() => 'still waiting')]);
    expect(fourth).toEqual({ traceId: traces[3]!.traceId, status: 'failed', reason: expect.stringMatching(/maxQueuedBytes/) });
    expect(failures).toEqual([fourth]);
    // One sent: room for another.
    held[0]!.answer();
    await vi.waitFor(() => expect(held).toHaveLength(2));
    results.push(client.logTrace(traces[4]!));
    const flushed = client.flush();
    for (let i = 1; i < 4; i++) {
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(i));
      held[i]!.answer();
    }
    await flushed;
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted', 'failed', 'accepted']);
  });

  it('starts four requests at most by default, and sends a part batch whose time came while none could start once one can', async () => {
    const { client, held } = await heldClient({ batchSize: 2, flushIntervalMs: 10 });
    const results = Array.from({ length: 9 }, () => client.logTrace(trace()));
    await vi.waitFor(() => expect(held).toHaveLength(4));
    // The ninth trace's interval passes while four requests are on their way: it waits, not lost.
    await new Promise((r) => setTimeout(r, 50));
    expect(held).toHaveLength(4);
    held[0]!.answer();
    await vi.waitFor(() => expect(held).toHaveLength(5));
    expect(held[4]!.size).toBe(1);
    for (const h of held.slice(1)) h.answer();
    expect((await Promise.all(results)).map((r) => r.status)).toEqual(Array(9).fill('accepted'));
  });

  it("waits no longer than backoff.maxMs between attempts, whatever a Retry-After asks (a proxy's maintenance page)", async () => {
    const { client } = await scriptedClient(
      [async () => new Response('<html>Down for maintenance</html>', { status: 503, headers: { 'retry-after': '3600' } })],
      { backoff: { baseMs: 1, maxMs: 20 } },
    );
    const started = Date.now();
    const { t, result } = await logOne(client);
    expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('splits a batch too large for one request, and rejects only the trace too large alone', async () => {
    const p = await newProject();
    const sizes: number[] = [];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      batchSize: 4,
      fetch: async (r) => {
        const copy = r.clone();
        sizes.push(((await copy.json()) as unknown[]).length);
        return collector(r);
      },
    });
    // Chunks of 18 KB: 40 make a trace of about 720 KB, 120 one past the collector's 2 MB alone.
    const big = (chunks: number) => ({
      ...trace(),
      retrievedChunks: Array.from({ length: chunks }, (_, i) => ({
        chunkId: `c${i}`,
        sourceDocId: 'd',
        score: 1 - i / 1000,
        rank: i + 1,
        text: 'x'.repeat(18_000),
      })),
    });
    const traces = [big(40), big(40), big(40), big(120)];
    const results = await Promise.all([...traces.map((t) => client.logTrace(t)), client.flush().then(() => null)]);
    expect(results.slice(0, 3).map((r) => r!.status)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(results[3]).toMatchObject({ traceId: traces[3]!.traceId, status: 'rejected', field: 'trace', reason: expect.stringContaining('HTTP 413') });
    expect(sizes[0]).toBe(4);
  });

  it('rejects a trace that cannot be sent as JSON alone, sending the rest, and survives an onError that throws', async () => {
    const p = await newProject();
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      fetch: collector,
      onError: () => {
        throw new Error('the backend callback broke');
      },
    });
    const good = trace();
    // Every field as the schema wants it, but JSON.stringify throws (an inherited toJSON).
    const unsendable = Object.defineProperty({}, 'toJSON', {
      value: () => {
        throw new Error('no JSON for this');
      },
    });
    const poison = Object.assign(Object.create(unsendable), trace()) as ReturnType<typeof trace>;
    const results = await Promise.all([client.logTrace(good), client.logTrace(poison), client.flush().then(() => null)]);
    expect(results[0]).toEqual({ traceId: good.traceId, status: 'accepted' });
    expect(results[1]).toMatchObject({ traceId: poison.traceId, status: 'rejected', field: 'trace', reason: expect.stringContaining('JSON') });
  });

  it('refuses at once, naming the field, what the collector would refuse, and sends only the rest', async () => {
    const p = await newProject();
    const errors: (TraceResult | EventResult)[] = [];
    let sent = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      fetch: async (r) => {
        sent += ((await r.clone().json()) as unknown[]).length;
        return collector(r);
      },
      onError: (r) => errors.push(r),
    });
    const good = trace();
    const misspelt = { ...trace(), rewritenQuery: 'typo' } as unknown as ReturnType<typeof trace>;
    const notANumber = trace();
    notANumber.retrievedChunks[0]!.score = Number.NaN;
    const asDate = { ...trace(), createdAt: new Date() } as unknown as ReturnType<typeof trace>;
    const calls = [good, misspelt, notANumber, asDate, null, undefined].map((t) => client.logTrace(t as ReturnType<typeof trace>));
    await client.flush();
    const results = await Promise.all(calls);
    expect(results[0]).toEqual({ traceId: good.traceId, status: 'accepted' });
    expect(results.slice(1).map((r) => (r.status === 'rejected' ? r.field : r.status))).toEqual([
      'trace.rewritenQuery',
      'trace.retrievedChunks[0].score',
      'trace.createdAt',
      'trace',
      'trace',
    ]);
    expect(results[1]).toMatchObject({ traceId: misspelt.traceId, reason: 'is not a field this takes' });
    expect(results[4]).toMatchObject({ traceId: '', status: 'rejected' });
    expect(sent).toBe(1);
    expect(errors).toHaveLength(5);
  });

  it('sends a trace as it was when logged, whatever the caller changes in it afterwards', async () => {
    const p = await newProject();
    const client = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector });
    const t = trace();
    const result = client.logTrace(t);
    // A backend reusing its objects for the next question, before the batch is sent.
    t.query = 'the next question';
    t.retrievedChunks[0]!.score = Number.NaN;
    await client.flush();
    expect(await result).toEqual({ traceId: t.traceId, status: 'accepted' });
    const stored = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as { trace: { query: string } };
    expect(stored.trace.query).toBe('What is the refund window for opened items?');
  });

  it('ignores an async onError that rejects, as it does one that throws, leaving no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const listen = (e: PromiseRejectionEvent) => {
      unhandled.push(e.reason);
      e.preventDefault();
    };
    addEventListener('unhandledrejection', listen);
    try {
      const client = new TraceClient({
        endpoint: 'http://collector.test',
        serverKey: 'rfs_test',
        // A logger that is itself down.
        onError: async () => {
          throw new Error('the log shipper is down');
        },
      });
      const result = await client.logTrace({ ...trace(), createdAt: Number.NaN });
      expect(result).toMatchObject({ status: 'rejected', field: 'trace.createdAt' });
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      removeEventListener('unhandledrejection', listen);
    }
  });

  it('names a field the collector refuses as the caller sent it, not by its place in the batch', async () => {
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_test',
      fetch: async () =>
        Response.json({
          accepted: 1,
          duplicate: 0,
          rejected: 1,
          results: [
            { index: 0, id: 'a', status: 'accepted' },
            { index: 1, status: 'rejected', field: 'traces[1].query', reason: 'too long' },
          ],
        }),
    });
    const [first, second] = [trace(), trace()];
    const results = Promise.all([client.logTrace(first), client.logTrace(second)]);
    await client.flush();
    // A collector that lists no fields: the one it names is the list.
    expect((await results)[1]).toEqual({
      traceId: second.traceId,
      status: 'rejected',
      field: 'trace.query',
      reason: 'too long',
      fields: [{ field: 'trace.query', message: 'too long' }],
    });
  });

  it('passes on every field the collector names of a refused item, as the caller sent it', async () => {
    const fields = [
      { field: 'traces[0].query', message: 'too long' },
      { field: 'traces[0].colour', message: 'is not a field this takes' },
    ];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_test',
      fetch: async () =>
        Response.json({
          accepted: 0,
          duplicate: 0,
          rejected: 1,
          // With entries no collector writes, which are left out.
          results: [{ index: 0, status: 'rejected', field: 'traces[0].query', reason: 'too long', fields: [...fields, { field: 3 }, null] }],
        }),
    });
    const result = client.logTrace(trace());
    await client.flush();
    expect(await result).toMatchObject({
      status: 'rejected',
      field: 'trace.query',
      fields: [
        { field: 'trace.query', message: 'too long' },
        { field: 'trace.colour', message: 'is not a field this takes' },
      ],
    });
  });

  it('names every field at fault of an item it refuses before sending, keys the collector does not take too', async () => {
    let sent = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_test',
      fetch: async () => {
        sent++;
        return Response.json({});
      },
    });
    const result = await client.logTrace({ ...trace(), createdAt: 5, colour: 'red' } as unknown as Parameters<typeof client.logTrace>[0]);
    expect(result).toMatchObject({ status: 'rejected', field: 'trace.createdAt' });
    expect(result.status === 'rejected' && result.fields.map((f) => f.field)).toEqual(['trace.createdAt', 'trace.colour']);
    expect(sent).toBe(0);
  });

  it('names one field at least of a trace or an event it rejects: the types refuse none', () => {
    // Never called: `npm run check`, which `npm test` runs first, fails if either compiles.
    const refused = (): [TraceResult, EventResult] => [
      // @ts-expect-error one field at least
      { traceId: 't', status: 'rejected', field: 'trace', reason: 'is not valid', fields: [] },
      // @ts-expect-error one field at least
      { eventId: 'e', traceId: 't', status: 'rejected', field: 'event', reason: 'is not valid', fields: [] },
    ];
    expect(refused).toBeTypeOf('function');
  });

  it('refuses options it could not work with when it is made, naming the option', () => {
    const base = { endpoint: 'http://collector.test', serverKey: 'rfs_test' };
    expect(() => new TraceClient({ ...base, batchSize: 0 })).toThrow(/batchSize must be an integer of at least 1, not 0/);
    expect(() => new TraceClient({ ...base, maxAttempts: 1.5 })).toThrow(RangeError);
    expect(() => new TraceClient({ ...base, flushIntervalMs: Number.NaN })).toThrow(/flushIntervalMs/);
    expect(() => new TraceClient({ ...base, backoff: { baseMs: 100, maxMs: -1 } })).toThrow(/backoff.maxMs/);
    expect(() => new TraceClient({ ...base, maxInFlight: 0 })).toThrow(/maxInFlight must be an integer of at least 1, not 0/);
    // A backoff given in part takes the rest from the defaults rather than retrying at once.
    expect(new TraceClient({ ...base, backoff: { baseMs: 100 } as never })).toBeInstanceOf(TraceClient);
    expect(new TraceClient({ ...base, batchSize: 500 })).toBeInstanceOf(TraceClient);
    // A backoff read from a config file as null, or given as one number.
    expect(() => new TraceClient({ ...base, backoff: null as never })).toThrow(/backoff must be \{ baseMs, maxMs \}, not null/);
    expect(() => new TraceClient({ ...base, backoff: 500 as never })).toThrow(RangeError);
    // Longer than a timer can wait: it would fire at once, failing every request (or retrying at once).
    expect(() => new TraceClient({ ...base, timeoutMs: Number.MAX_SAFE_INTEGER })).toThrow(/timeoutMs must be a number from 0 to 2147483647/);
    expect(() => new TraceClient({ ...base, flushIntervalMs: 2 ** 31 })).toThrow(/flushIntervalMs/);
    expect(() => new TraceClient({ ...base, backoff: { baseMs: 500, maxMs: 2 ** 40 } })).toThrow(/backoff.maxMs/);
    expect(new TraceClient({ ...base, timeoutMs: 2 ** 31 - 1 })).toBeInstanceOf(TraceClient);
    // Neither a function nor a service binding: every request would fail after its retries.
    expect(() => new TraceClient({ ...base, fetch: {} as never })).toThrow(/fetch must be a function or a service binding, not object/);
    expect(() => new TraceClient({ ...base, onError: null as never })).toThrow(/onError must be a function, not null/);
  });

  it('sends with the global fetch when the fetch option is given as undefined, as when it is left out', async () => {
    const p = await newProject();
    const global = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => collector(new Request(input, init)));
    try {
      // `fetch: env.COLLECTOR_FETCH` where none is set: the type allows it.
      const client = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: undefined, maxAttempts: 1 });
      const { t, result } = await logOne(client);
      expect(result).toEqual({ traceId: t.traceId, status: 'accepted' });
      expect(global).toHaveBeenCalledTimes(1);
    } finally {
      global.mockRestore();
    }
  });

  it('refuses, when it is made, an endpoint or key no request could be sent with, naming the option', () => {
    const key = 'rfs_test';
    // An unset environment variable, a URL without its scheme, a key read from a file with its newline.
    expect(() => new TraceClient({ endpoint: undefined as never, serverKey: key })).toThrow(/endpoint must be an http\(s\) URL, not undefined/);
    expect(() => new TraceClient({ endpoint: '127.0.0.1:8787', serverKey: key })).toThrow(/endpoint/);
    expect(() => new TraceClient({ endpoint: 'ftp://collector.test', serverKey: key })).toThrow(/endpoint/);
    expect(() => new TraceClient({ endpoint: 'http://collector.test', serverKey: undefined as never })).toThrow(/serverKey/);
    expect(() => new TraceClient({ endpoint: 'http://collector.test', serverKey: '' })).toThrow(/serverKey/);
    expect(() => new TraceClient({ endpoint: 'http://collector.test', serverKey: 'rfs_test\n' })).toThrow(/serverKey/);
    // An endpoint read with its line break or a space: the URL checks pass, but every request's URL
    // would be one that cannot be parsed ("…:8787 /v1/traces") or another path ("…//v1/traces").
    expect(() => new TraceClient({ endpoint: 'http://127.0.0.1:8787 ', serverKey: key })).toThrow(
      /endpoint must be an http\(s\) URL.*"http:\/\/127.0.0.1:8787 "/,
    );
    expect(() => new TraceClient({ endpoint: 'https://feedback.example.com/\n', serverKey: key })).toThrow(/endpoint/);
    expect(new TraceClient({ endpoint: 'https://feedback.example.com/base/', serverKey: key })).toBeInstanceOf(TraceClient);
    // A user name and password in it (for a proxy's basic auth): fetch refuses every request to such a URL, each failure naming the
    // password; a query or fragment, which each request's path would be put after. Refused, the password not repeated.
    const refusal = (endpoint: string) => {
      try {
        new TraceClient({ endpoint, serverKey: key });
      } catch (err) {
        return err as Error;
      }
    };
    const withPassword = refusal('https://feedback:s3cret@feedback.example.com');
    expect(withPassword).toBeInstanceOf(RangeError);
    expect(withPassword?.message).toMatch(/^endpoint must not hold a user name or password/);
    expect(withPassword?.message).not.toContain('s3cret');
    // Read with its line break, it is no URL, and said so without the password too.
    expect(refusal('https://feedback:s3cret@feedback.example.com\n')?.message).toBe('endpoint must be an http(s) URL, not "https://feedback.example.com\\n"');
    expect(() => createReranker({ endpoint: 'https://feedback:s3cret@feedback.example.com', serverKey: key })).toThrow(/endpoint must not hold/);
    expect(refusal('https://feedback.example.com/?project=a')?.message).toMatch(/^endpoint must be the collector's address alone, without a query or fragment/);
    expect(refusal('https://feedback.example.com/#a')?.message).toMatch(/^endpoint must be the collector's address alone/);
  });
});

describe('TraceClient sending the events a backend sees', () => {
  it('stores an event with the server key, its id and time made when logged, and a retry of it once', async () => {
    const p = await newProject();
    const client = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector });
    const t = trace();
    const before = Date.now();
    const results = await Promise.all([
      client.logTrace(t),
      client.logEvent({ traceId: t.traceId, sessionId: 's-backend', signalType: 'regenerate', detail: { gapMs: 4_000 } }),
      client.flush().then(() => null),
    ]);
    const logged = results[1] as EventResult;
    expect(logged).toEqual({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/), traceId: t.traceId, status: 'accepted' });
    const stored = await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) });
    const { events } = (await stored.json()) as { events: { eventId: string; signalType: string; clientTs: number; detail: unknown }[] };
    expect(events).toMatchObject([{ eventId: logged.eventId, signalType: 'regenerate', detail: { gapMs: 4_000 } }]);
    expect(events[0]!.clientTs).toBeGreaterThanOrEqual(before);
    // Sent again by id (a retry after a lost answer), it is stored once.
    const again = client.logEvent({ eventId: logged.eventId, traceId: t.traceId, sessionId: 's-backend', signalType: 'regenerate', detail: { gapMs: 4_000 } });
    await client.flush();
    expect(await again).toEqual({ eventId: logged.eventId, traceId: t.traceId, status: 'duplicate' });
  });

  it('lets the collector mark an answer that the next question says was wrong, whichever instance logged each turn', async () => {
    const p = await newProject();
    const failed: unknown[] = [];
    // Two instances of a backend, each with its own client: the follow-up's is sent first.
    const [one, two] = [0, 1].map(
      () => new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector, onError: (r) => failed.push(r) }),
    );
    const first = trace({ sessionId: 's-chat', turnIndex: 0, query: 'How long do refunds take?' });
    const second = trace({ sessionId: 's-chat', turnIndex: 1, query: "That's wrong, it is 30 days", createdAt: first.createdAt + 30_000 });
    const followUp = two!.logTrace(second);
    await two!.flush();
    const answer = one!.logTrace(first);
    await one!.flush();
    expect([(await answer).status, (await followUp).status]).toEqual(['accepted', 'accepted']);
    const { events } = (await (await call(`/v1/traces/${first.traceId}`, { headers: bearer(p.keys.admin) })).json()) as { events: unknown[] };
    expect(events).toMatchObject([
      { signalType: 'contradicted_by_follow_up', sessionId: 's-chat', clientTs: second.createdAt, detail: { nextTraceId: second.traceId, gapMs: 30_000 } },
    ]);
    expect(failed).toEqual([]);
  });

  it('makes the id and time of an event that gives them as undefined, as of one that leaves them out', async () => {
    const p = await newProject();
    const client = new TraceClient({ endpoint: 'http://collector.test', serverKey: p.keys.server, fetch: collector });
    const kept: { eventId?: string } = {};
    const result = client.logEvent({
      eventId: kept.eventId,
      clientTs: undefined,
      traceId: 't',
      sessionId: 's',
      signalType: 'regenerate',
      detail: { gapMs: 10 },
    });
    await client.flush();
    expect(await result).toEqual({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/), traceId: 't', status: 'accepted' });
  });

  it('refuses at once, naming the field as the caller knows it, an event the collector would refuse', async () => {
    let sent = 0;
    const errors: (TraceResult | EventResult)[] = [];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_test',
      fetch: async () => {
        sent++;
        return new Response('{}', { status: 500 });
      },
      onError: (r) => errors.push(r),
    });
    const calls = [
      { traceId: 't', sessionId: 's', signalType: 'regenerate', detail: { gapMs: -1 } },
      { traceId: 't', sessionId: 's', signalType: 'thumbs_sideways' },
      { traceId: 't', signalType: 'thumbs_up' },
      null,
    ].map((e) => client.logEvent(e as never));
    await client.flush();
    const results = await Promise.all(calls);
    expect(results.map((r) => (r.status === 'rejected' ? r.field : r.status))).toEqual(['event.detail.gapMs', 'event.signalType', 'event.sessionId', 'event']);
    expect(results[0]!.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(results[3]).toMatchObject({ eventId: '', traceId: '', status: 'rejected' });
    expect(sent).toBe(0);
    expect(errors).toHaveLength(4);
  });

  it("names an event's field the collector refuses as the caller sent it, and sends again a batch its answer left one out of", async () => {
    const answered = [
      { index: 0, id: 'a', status: 'accepted' },
      { index: 1, status: 'rejected', field: 'events[1].detail.gapMs', reason: 'too long a gap' },
    ];
    let calls = 0;
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_test',
      backoff: fast,
      fetch: async (r) => {
        expect(new URL(r.url).pathname).toBe('/v1/events');
        expect(((await r.json()) as { events: unknown[] }).events).toHaveLength(3);
        // Not the collector's answer to this batch, which has one entry per item: nothing in it is taken on its word.
        if (calls++ === 0) return Response.json({ accepted: 1, duplicate: 0, rejected: 1, results: answered });
        return Response.json({ accepted: 1, duplicate: 1, rejected: 1, results: [...answered, { index: 2, id: 'c', status: 'duplicate' }] });
      },
    });
    const regenerate = () => client.logEvent({ traceId: 't', sessionId: 's', signalType: 'regenerate', detail: { gapMs: 10 } });
    const results = Promise.all([regenerate(), regenerate(), regenerate()]);
    await client.flush();
    expect((await results).map(({ eventId: _, traceId: __, ...r }) => r)).toEqual([
      { status: 'accepted' },
      { status: 'rejected', field: 'event.detail.gapMs', reason: 'too long a gap', fields: [{ field: 'event.detail.gapMs', message: 'too long a gap' }] },
      { status: 'duplicate' },
    ]);
    expect(calls).toBe(2);
  });

  it("keeps the events of a session over the collector's limit, and sends them again after the wait it asks, while the rest of their batch is stored", async () => {
    const p = await newProject();
    const { traceId } = trace();
    const [flood, quiet] = [`flood-${crypto.randomUUID()}`, `quiet-${crypto.randomUUID()}`];
    // The flooding session spends its 300 a minute (the test's limit) on its own.
    for (let i = 0; i < 3; i++) {
      const events = Array.from({ length: 100 }, () => event({ traceId, sessionId: flood }));
      const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.server), 'cf-connecting-ip': '203.0.113.77' }, json: { events } });
      expect(res.status).toBe(200);
    }
    const sent: string[][] = [];
    const errors: (TraceResult | EventResult)[] = [];
    const client = new TraceClient({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      // Room for the second it is asked to wait: the limit refills 5 events a second.
      backoff: { baseMs: 1, maxMs: 2_000 },
      onError: (r) => errors.push(r),
      fetch: async (r) => {
        sent.push(((await r.clone().json()) as { events: { sessionId: string }[] }).events.map((e) => e.sessionId));
        return collector(r);
      },
    });
    const log = (sessionId: string) => client.logEvent({ traceId, sessionId, signalType: 'regenerate', detail: { gapMs: 1_000 } });
    const startedAt = Date.now();
    const results = Promise.all([log(flood), log(quiet), log(flood)]);
    await client.flush();
    expect((await results).map((r) => r.status)).toEqual(['accepted', 'accepted', 'accepted']);
    // The quiet session's event went once; the flooder's alone again, after the second asked for.
    expect(sent).toEqual([
      [flood, quiet, flood],
      [flood, flood],
    ]);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_000);
    expect(errors).toEqual([]);
    const stored = await call(`/v1/traces/${traceId}`, { headers: bearer(p.keys.admin) });
    const ids = ((await stored.json()) as { events: { eventId: string }[] }).events.map((e) => e.eventId);
    for (const r of await results) expect(ids).toContain(r.eventId);
  });

  it('fails, naming the rate limit, an event still held after its attempts, and never as rejected', async () => {
    const held = (r: Request) =>
      r.json().then((body) => {
        const [e] = (body as { events: { eventId: string }[] }).events;
        const reason = 'Too many events for this session; retry in 1 s';
        return Response.json(
          {
            accepted: 0,
            duplicate: 0,
            rejected: 0,
            rateLimited: 1,
            results: [{ index: 0, id: e!.eventId, status: 'rate_limited', field: 'events[0].sessionId', reason, retryAfter: 0 }],
          },
          { status: 429 },
        );
      });
    const { client, calls } = await scriptedClient([held, held, held], { maxAttempts: 3 });
    const result = client.logEvent({ traceId: 't', sessionId: 's', signalType: 'regenerate', detail: { gapMs: 10 } });
    await client.flush();
    expect(await result).toMatchObject({ status: 'failed', reason: 'HTTP 429: Too many events for this session; retry in 1 s' });
    expect(calls()).toBe(3);
  });

  it('sends the whole batch again, as before, when a 429 answers with results it cannot read', async () => {
    const unreadable = async (r: Request) => {
      const { events } = (await r.json()) as { events: { eventId: string }[] };
      // A rate_limited entry without its retryAfter: not the collector's word on the item.
      const results = events.map((e, index) => ({ index, id: e.eventId, status: 'rate_limited', field: `events[${index}].sessionId`, reason: 'slow' }));
      return Response.json({ error: { code: 'rate_limited', message: 'slow' }, results }, { status: 429, headers: { 'retry-after': '0' } });
    };
    const { client, calls } = await scriptedClient([unreadable]);
    const log = () => client.logEvent({ traceId: 't', sessionId: crypto.randomUUID(), signalType: 'regenerate', detail: { gapMs: 10 } });
    const results = Promise.all([log(), log()]);
    await client.flush();
    expect((await results).map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(calls()).toBe(2);
  });
});
