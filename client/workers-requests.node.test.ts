/**
 * The client inside a real workerd, kept across requests as a Worker keeps it in module scope. A
 * request that ends (returns, runs out of `waitUntil` time, loses its caller) takes with it what it
 * started: the runtime never settles that fetch nor fires that timer, and another request cannot
 * abort it. What one request left on its way must not hold the client for the requests after.
 */
import { createServer, type Server } from 'node:http';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyModel } from '../collector/test/tiny-model.ts';
import { uuidv7 } from '../shared/ids.ts';
import { LOST_AFTER_DEADLINE_MS } from './deadline.ts';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The backend Worker: one reranker for the isolate (a test's own, by `?name=`); `?wait=` holds the
 * response that long after ranking, as an LLM call would, `?leave` returns without waiting for it; `?refresh` calls `refresh()` first, saying
 * whether it settled within a second (or `?refresh=` ms). `POST /log` logs the trace in its body with the isolate's
 * trace client (a test's own, by `?name=`), answering what became of it with `?wait` (or `unsent`
 * after two seconds), at once without; `/flush` flushes it for at most 100 ms. `POST /given`
 * logs the trace in its body, and ranks, with a new client and reranker given `fetch` as `?fetch=`
 * says: the service binding COLLECTOR, or the global fetch, as a Worker passes them.
 */
const WORKER = `
import { createReranker, createTraceClient } from './index.ts';
const rerankers = {};
const clients = {};
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/given') {
      const byBinding = url.searchParams.get('fetch') === 'binding';
      const options = { endpoint: byBinding ? 'http://collector.test' : env.ENDPOINT, serverKey: 'rfs_x', fetch: byBinding ? env.COLLECTOR : fetch };
      const errors = [];
      try {
        const feedback = createTraceClient({ ...options, maxAttempts: 1 });
        const logging = feedback.logTrace(await request.json());
        await feedback.flush();
        const logged = await logging;
        const ranked = await createReranker({ ...options, onError: (e) => errors.push(e.message) }).rerank('q', [{ chunkId: 'c1', text: 'one' }]);
        return Response.json({ logged: logged.status, reason: logged.reason, ranked: ranked[0].rerankerVersion ?? null, errors });
      } catch (error) {
        return Response.json({ threw: error.message });
      }
    }
    const feedback = (clients[url.searchParams.get('name')] ??= createTraceClient({ endpoint: env.ENDPOINT, serverKey: 'rfs_x', batchSize: 1, maxInFlight: 1, timeoutMs: 300 }));
    if (url.pathname === '/flush') {
      return feedback.flush({ timeoutMs: 100 }).then(() => Response.json({ flushed: true }), (error) => Response.json({ flushed: false, error: error.message }));
    }
    if (url.pathname === '/log') {
      const logged = feedback.logTrace(await request.json());
      if (!url.searchParams.has('wait')) return Response.json({});
      return Response.json(await Promise.race([logged, new Promise((r) => setTimeout(() => r({ status: 'unsent' }), 2000))]));
    }
    const reranker = (rerankers[url.searchParams.get('name')] ??= createReranker({ endpoint: env.ENDPOINT, serverKey: 'rfs_x', refreshMs: 0, timeoutMs: 300 }));
    const refreshed = url.searchParams.has('refresh')
      ? await Promise.race([reranker.refresh().then(() => 'settled'), new Promise((r) => setTimeout(() => r('hung'), Number(url.searchParams.get('refresh')) || 1000))])
      : undefined;
    const ranking = reranker.rerank('q', [{ chunkId: 'c1', text: 'one', score: 0.9 }, { chunkId: 'c2', text: 'two', score: 0.1 }]);
    if (url.searchParams.has('leave')) return Response.json({});
    const ranked = await ranking;
    const wait = Number(url.searchParams.get('wait') ?? 0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return Response.json({ ranked: ranked[0].rerankerVersion ?? null, refreshed });
  },
};`;

/**
 * GET /v1/reranker serving `served`, its answer `hold` ms late when asked; POST /v1/traces storing
 * each trace once in `stored`, or, while `hangTraces`, storing nothing and never answering.
 */
const collector = { served: 'v1', hold: 0, hangTraces: false, stored: [] as string[] };
const server = createServer(async (req, res) => {
  if (req.method === 'POST') {
    if (collector.hangTraces) return;
    let body = '';
    for await (const chunk of req) body += chunk;
    const results = (JSON.parse(body) as { traceId: string }[]).map(({ traceId: id }, index) => {
      const status = collector.stored.includes(id) ? 'duplicate' : 'accepted';
      if (status === 'accepted') collector.stored.push(id);
      return { index, id, status };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ results }));
  }
  const version = collector.served;
  if (collector.hold > 0) await sleep(collector.hold);
  res.writeHead(200, { 'content-type': 'application/json', etag: `"${version}"` });
  res.end(JSON.stringify(tinyModel(version)));
});
let mf: Miniflare;
const backend = async (query: string) =>
  (await (await mf.dispatchFetch(`http://backend.test/?${query}`)).json()) as { ranked: string | null; refreshed?: string };
const rank = async (name: string, wait = 0) => (await backend(`name=${name}&wait=${wait}`)).ranked;
const trace = () => ({
  traceId: uuidv7(),
  query: 'What is the refund window?',
  retrievedChunks: [{ chunkId: 'c1', sourceDocId: 'refunds.md', score: 0.8, rank: 1, text: 'Opened items can be returned within 14 days.' }],
  answer: '14 days.',
  model: 'gpt-test',
  sessionId: 's1',
  createdAt: Date.now(),
});
const log = async (name: string, t: object, wait: boolean) =>
  (await (await mf.dispatchFetch(`http://backend.test/log?name=${name}${wait ? '&wait' : ''}`, { method: 'POST', body: JSON.stringify(t) })).json()) as {
    status?: string;
    reason?: string;
  };
/** A revalidation left to a request that returns before the collector answers it: workerd drops that fetch. */
const dropRevalidation = async (name: string) => {
  collector.hold = 150;
  await rank(name);
  collector.hold = 0;
};
/** Past a dropped revalidation's `timeoutMs` (300) and the grace after it. */
const pastDropped = () => sleep(300 + LOST_AFTER_DEADLINE_MS + 100);

beforeAll(async () => {
  const endpoint = await listen(server);
  const bundle = await build({
    stdin: { contents: WORKER, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
  });
  mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]!.text,
    compatibilityDate: '2025-01-01',
    bindings: { ENDPOINT: endpoint },
    // A service binding to the stand-in collector, as a Worker reaches the collector's Worker.
    serviceBindings: {
      COLLECTOR: async (req) =>
        fetch(`${endpoint}${new URL(req.url).pathname}`, {
          method: req.method,
          headers: req.headers,
          body: req.method === 'POST' ? await req.text() : undefined,
        }),
    },
  });
});
afterAll(async () => {
  await mf?.dispose();
  await new Promise((r) => server.close(r));
});

describe('createReranker kept across a Worker’s requests', () => {
  it('revalidates again once a revalidation a returned request took with it is past its timeout, so a promotion still arrives', async () => {
    collector.served = 'v1';
    expect(await rank('promotion')).toBe('v1');
    await dropRevalidation('promotion');
    collector.served = 'v2';
    await pastDropped();
    // A request that lives long enough fetches the promotion: the next list is ranked by it.
    expect(await rank('promotion', 400)).toBe('v1');
    expect(await rank('promotion')).toBe('v2');
  });

  it('answers the first call that waits for a model another request fetches and took with it, in retrieval order', async () => {
    collector.served = 'v1';
    // The first ranking, whose request ends before the model arrives: workerd drops that fetch.
    collector.hold = 150;
    await backend('name=cold&leave');
    collector.hold = 0;
    // Another request's first call waits for that model: at most its timeout and the grace after, not for good.
    const started = Date.now();
    expect(await rank('cold')).toBeNull();
    expect(Date.now() - started).toBeLessThan(300 + LOST_AFTER_DEADLINE_MS + 1_000);
    expect(await rank('cold')).toBe('v1');
  });

  it('settles refresh() called after a revalidation a returned request took with it', async () => {
    collector.served = 'v1';
    expect(await rank('refresh')).toBe('v1');
    await dropRevalidation('refresh');
    collector.served = 'v2';
    await pastDropped();
    expect(await backend('name=refresh&refresh')).toEqual({ ranked: 'v2', refreshed: 'settled' });
  });

  it('settles refresh() waiting on a revalidation a returned request took with it once that is taken for lost, and sends another', async () => {
    collector.served = 'v1';
    expect(await rank('refresh-waits')).toBe('v1');
    await dropRevalidation('refresh-waits');
    collector.served = 'v2';
    // Called while the dropped one still counts as on its way: refresh() waits for it, but only until it is taken for lost.
    const started = Date.now();
    expect(await backend('name=refresh-waits&refresh=4000')).toEqual({ ranked: 'v2', refreshed: 'settled' });
    expect(Date.now() - started).toBeLessThan(300 + LOST_AFTER_DEADLINE_MS + 1_000);
  });
});

describe('createTraceClient kept across a Worker’s requests', () => {
  it('sends again, and goes on sending after, a batch a request that ended took with it on its way', async () => {
    const [first, second] = [trace(), trace()];
    // Its request ends while the collector has not answered: workerd drops that request, and its timeout's timer.
    collector.hangTraces = true;
    expect(await log('lost', first, false)).toEqual({});
    collector.hangTraces = false;
    await sleep(300 + LOST_AFTER_DEADLINE_MS + 100);
    // The one request the client may have on its way was lost: were it still held, nothing would be sent again.
    expect(await log('lost', second, true)).toEqual({ traceId: second.traceId, status: 'accepted' });
    expect(collector.stored).toEqual([first.traceId, second.traceId]);
  });

  it('gives up, at a flush out of time in one request, on a batch another request has on its way', async () => {
    collector.hangTraces = true;
    const waiting = log('flush', trace(), true);
    await sleep(100);
    expect(await (await mf.dispatchFetch('http://backend.test/flush?name=flush')).json()).toEqual({ flushed: true });
    expect(await waiting).toMatchObject({ status: 'failed', reason: expect.stringContaining('unanswered when flush gave up after 100 ms') });
    collector.hangTraces = false;
  });
});

describe('the client given a fetch in a Worker', () => {
  it('sends through a service binding given whole, and through the global fetch given as it is', async () => {
    collector.served = 'v1';
    for (const given of ['binding', 'global']) {
      const t = trace();
      const answer = await mf.dispatchFetch(`http://backend.test/given?fetch=${given}`, { method: 'POST', body: JSON.stringify(t) });
      expect({ given, ...((await answer.json()) as object) }).toEqual({ given, logged: 'accepted', ranked: 'v1', errors: [] });
      expect(collector.stored).toContain(t.traceId);
    }
  });
});
