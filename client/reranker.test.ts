/** createReranker's fetching and fallbacks, run inside workerd (the same code backends run on Workers). */
import { describe, expect, it } from 'vitest';
import { adminCall, call, newProject } from '../collector/test/fixtures.ts';
import { tinyModel } from '../collector/test/tiny-model.ts';
import type { Embedder } from '../shared/embedder.ts';
import type { RerankerModel } from '../shared/reranker/model.ts';
import { rerankWithModel } from '../shared/reranker/rerank.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { trainReranker } from '../shared/training/train.ts';
import { CHUNK_VECTOR_CACHE_BYTES, createReranker } from './reranker.ts';

const { data, heldOut } = trainingWorld();
const model = trainReranker(data, { version: 'v7', now: 1_767_225_600_000 }).model;
const query = heldOut[3]!;

/** A stand-in for GET /v1/reranker that answers from a script and records the requests. */
function collector(answers: (() => Response)[]) {
  const seen: Request[] = [];
  const fetch = async (r: Request) => {
    seen.push(r);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { fetch, seen };
}
const modelResponse = () => new Response(JSON.stringify(model), { headers: { ETag: '"v7"', 'content-type': 'application/json' } });

describe('createReranker', () => {
  it('waits for the model on first use, ranks with it, and revalidates with its ETag', async () => {
    const c = collector([modelResponse, () => new Response(null, { status: 304 })]);
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: c.fetch, refreshMs: 0 });
    const ranked = await reranker.rerank(query.query, query.candidates);
    expect(reranker.version).toBe('v7');
    expect(ranked[0]!.chunkId).not.toBe(query.candidates[0]!.chunkId);
    expect(ranked.map((r) => r.retrievalRank).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    await reranker.refresh();
    expect(c.seen.map((r) => [r.url, r.headers.get('authorization'), r.headers.get('if-none-match')])).toEqual([
      ['http://collector.test/v1/reranker', 'Bearer rfs_x', null],
      ['http://collector.test/v1/reranker', 'Bearer rfs_x', '"v7"'],
    ]);
    expect(reranker.version).toBe('v7');
  });

  it('refresh() asks the collector after it is called, even while an earlier request is on its way', async () => {
    let current = 'v1';
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let requests = 0;
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: async () => {
        const version = current;
        if (requests++ === 0) await held;
        return new Response(JSON.stringify({ ...model, version }), { headers: { ETag: `"${version}"` } });
      },
    });
    const earlier = reranker.refresh();
    // A promotion, then the backend told to pick it up.
    current = 'v2';
    const now = reranker.refresh();
    release();
    await Promise.all([earlier, now]);
    expect(reranker.version).toBe('v2');
    expect(requests).toBe(2);
  });

  it("keeps retrieval's order with no model, and the last good model when the collector fails", async () => {
    const errors: string[] = [];
    const revoked = () => Response.json({ error: { code: 'unauthorized', message: 'The key is unknown or revoked' } }, { status: 401 });
    const noModel = () =>
      Response.json(
        { error: { code: 'no_model', message: 'No model is served (none promoted, or the last one rolled back): rank in retrieval order' } },
        { status: 404 },
      );
    const c = collector([noModel, modelResponse, () => new Response('down', { status: 503 }), revoked]);
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: c.fetch, onError: (e) => errors.push(e.message) });
    const plain = await reranker.rerank(query.query, query.candidates);
    expect(plain.map((r) => r.chunkId)).toEqual(query.candidates.map((x) => x.chunkId));
    expect(plain.every((r) => r.rerankerVersion === undefined)).toBe(true);
    expect(reranker.version).toBeUndefined();
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    await reranker.refresh();
    await reranker.refresh();
    // The collector's own words, when it gave any: a revoked key is not "no model yet".
    expect(errors).toEqual(['GET /v1/reranker answered 503', 'GET /v1/reranker answered 401: The key is unknown or revoked']);
    expect(reranker.version).toBe('v7');
    expect((await reranker.rerank(query.query, query.candidates))[0]!.chunkId).toBe(`rel-3`);
  });

  it("refuses at load a model whose judged query's vector is not base64, which ranking could not unpack, keeping the last good one", async () => {
    const errors: string[] = [];
    const corrupt = { ...model, version: 'v8', memory: { ...model.memory, queries: [{ terms: ['refund'], vector: '***' }] } };
    const c = collector([modelResponse, () => new Response(JSON.stringify(corrupt), { headers: { ETag: '"v8"' } })]);
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: c.fetch, onError: (e) => errors.push(e.message) });
    await reranker.refresh();
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect((await reranker.rerank(query.query, query.candidates))[0]!.chunkId).toBe('rel-3');
    expect(errors).toEqual(['model v8 is not a reranker model: memory.queries.0.vector: must be base64, as packVector writes it']);
  });

  it('says once that a model is refused, and fetches it again only when another version is promoted', async () => {
    const errors: string[] = [];
    const corrupt = { ...model, version: 'v8', memory: { ...model.memory, queries: [{ terms: ['refund'], vector: '***' }] } };
    const artifacts: Record<string, unknown> = { v7: model, v8: corrupt, v9: { ...model, version: 'v9' } };
    let promoted = 'v7';
    let downloads = 0;
    // As the collector answers (collector/routes/v1/reranker.ts): 304 when If-None-Match names the promoted version.
    const fetch = async (r: Request) => {
      const etag = `"${promoted}"`;
      const named =
        r.headers
          .get('if-none-match')
          ?.split(',')
          .map((t) => t.trim()) ?? [];
      if (named.includes(etag)) return new Response(null, { status: 304, headers: { ETag: etag } });
      downloads++;
      return new Response(JSON.stringify(artifacts[promoted]), { headers: { ETag: etag } });
    };
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch, onError: (e) => errors.push(e.message) });
    await reranker.refresh();
    promoted = 'v8';
    await reranker.refresh();
    await reranker.refresh();
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect(errors).toEqual([expect.stringMatching(/^model v8 is not a reranker model: memory\.queries\.0\.vector: /)]);
    expect(downloads).toBe(2);
    // Rolled back: the model in use is still the one served.
    promoted = 'v7';
    await reranker.refresh();
    expect(downloads).toBe(2);
    promoted = 'v9';
    await reranker.refresh();
    expect(reranker.version).toBe('v9');
    expect(downloads).toBe(3);
  });

  it('says once that a model fails the schema and does not download it again, while a body cut off on its way is asked for again', async () => {
    const errors: string[] = [];
    const { priors, ...withoutPriors } = model;
    const bodies: Record<string, string> = {
      v7: JSON.stringify(model),
      v8: JSON.stringify({ ...withoutPriors, version: 'v8' }),
      v9: JSON.stringify({ ...model, version: 'v9' }).slice(0, 40),
    };
    let promoted = 'v7';
    let downloads = 0;
    // As the collector answers (collector/routes/v1/reranker.ts): 304 when If-None-Match names the promoted version.
    const fetch = async (r: Request) => {
      const etag = `"${promoted}"`;
      if (r.headers.get('if-none-match')?.split(', ').includes(etag)) return new Response(null, { status: 304, headers: { ETag: etag } });
      downloads++;
      return new Response(bodies[promoted], { headers: { ETag: etag } });
    };
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch, onError: (e) => errors.push(e.message) });
    await reranker.refresh();
    promoted = 'v8';
    for (let i = 0; i < 3; i++) await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect(errors).toEqual([expect.stringMatching(/^model v8 is not a reranker model: priors/)]);
    expect(downloads).toBe(2);
    promoted = 'v9';
    await reranker.refresh();
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect(downloads).toBe(4);
    expect(errors).toHaveLength(3);
  });

  it('says once that a model is refused even when its answer carries no ETag to revalidate with', async () => {
    const errors: string[] = [];
    const corrupt = { ...model, version: 'v8', memory: { ...model.memory, queries: [{ terms: ['refund'], vector: '***' }] } };
    const stripped = () => new Response(JSON.stringify(corrupt));
    const c = collector([modelResponse, stripped, stripped, stripped]);
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: c.fetch, onError: (e) => errors.push(e.message) });
    for (let i = 0; i < 4; i++) await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect(errors).toEqual([expect.stringMatching(/^model v8 is not a reranker model: memory\.queries\.0\.vector: /)]);
  });

  it('never rejects, even when the network throws', async () => {
    const errors: string[] = [];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND collector.test') });
      },
      onError: (e) => errors.push(e.message),
    });
    expect((await reranker.rerank('q', [{ chunkId: 'a', text: 'x' }])).map((r) => r.chunkId)).toEqual(['a']);
    // Why, and where: Node's bare "fetch failed" says neither.
    expect(errors).toEqual(['GET /v1/reranker failed: fetch failed (getaddrinfo ENOTFOUND collector.test), to http://collector.test/v1/reranker']);
  });

  it("stops waiting after its timeout even when the fetch given ignores the abort, or the model's body never ends", async () => {
    const errors: string[] = [];
    const stalled = () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) }), { headers: { ETag: '"v7"' } });
    const answers = [() => new Promise<Response>(() => {}), () => Promise.resolve(stalled()), () => Promise.resolve(modelResponse())];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      timeoutMs: 50,
      fetch: () => answers.shift()!(),
      onError: (e) => errors.push(e.message),
    });
    const ranked = await reranker.rerank('q', [
      { chunkId: 'a', text: 'x' },
      { chunkId: 'b', text: 'y' },
    ]);
    expect(ranked.map((r) => r.chunkId)).toEqual(['a', 'b']);
    await reranker.refresh();
    expect(reranker.version).toBeUndefined();
    expect(errors).toEqual([expect.stringMatching(/50 ms/), expect.stringMatching(/50 ms/)]);
    // Once the collector answers, the model arrives.
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
  });

  it('answers no chunks at once, without waiting for the model or calling the embedder', async () => {
    let embedded = 0;
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      timeoutMs: 5_000,
      fetch: () => new Promise<Response>(() => {}),
      embedder: {
        id: 'e',
        embed: async (texts) => {
          embedded++;
          return texts.map(() => new Float32Array(2));
        },
      },
    });
    const started = Date.now();
    expect(await reranker.rerank('nothing was retrieved', [])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(embedded).toBe(0);
  });

  it("stops waiting for a hung collector after its timeout, keeping retrieval's order, whatever onError throws", async () => {
    const hung = (r: Request) =>
      new Promise<Response>((_, reject) => r.signal.addEventListener('abort', () => reject(new Error(`timed out: ${String(r.signal.reason)}`))));
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      timeoutMs: 50,
      fetch: hung,
      onError: () => {
        throw new Error('the backend callback broke');
      },
    });
    const ranked = await reranker.rerank('q', [
      { chunkId: 'a', text: 'x' },
      { chunkId: 'b', text: 'y' },
    ]);
    expect(ranked.map((r) => r.chunkId)).toEqual(['a', 'b']);
    expect(reranker.version).toBeUndefined();
  });
});

describe('createReranker against the real collector', () => {
  it('keeps the last good model when a 404 is not the collector saying it has none, and drops it when it is', async () => {
    const p = await newProject();
    const promoted = await adminCall(p, '/models', {
      method: 'POST',
      json: { model, confirmed: 30, comparedWith: null, evaluation: {}, promote: true, reasons: ['by hand'] },
    });
    expect(promoted.status).toBe(201);
    const errors: string[] = [];
    let proxy = false;
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      // Revalidated only when told, so each answer is the one the test expects.
      refreshMs: 60_000,
      // A load balancer in front of the collector, briefly answering with its own 404 page.
      fetch: (r) =>
        proxy ? Promise.resolve(new Response('<html>404 Not Found</html>', { status: 404 })) : call(new URL(r.url).pathname, { headers: r.headers }),
      onError: (e) => errors.push(e.message),
    });
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    proxy = true;
    await reranker.refresh();
    expect(reranker.version).toBe('v7');
    expect(errors).toEqual(['GET /v1/reranker answered 404']);
    expect((await reranker.rerank(query.query, query.candidates))[0]!.chunkId).toBe('rel-3');
    // The collector's own "no model" (after a rollback to retrieval's order) is heard, silently.
    proxy = false;
    expect((await adminCall(p, '/models/rollback', { method: 'POST' })).body).toEqual({ rolledBack: 'v7', current: null });
    await reranker.refresh();
    expect(reranker.version).toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe('createReranker with an embedder', () => {
  /** Ranks by the cosine of the query's vector and each chunk's: nothing else. */
  const byMeaning = (version: string): RerankerModel => ({
    ...tinyModel(version),
    features: ['embedding_similarity'],
    weights: [1],
    mean: [0],
    scale: [1],
    embedder: 'fake-embedder',
  });
  const served = (version: string) => () => new Response(JSON.stringify(byMeaning(version)), { headers: { ETag: `"${version}"` } });
  /** "up" points where every query does, "down" away from it; `gate` holds the call that embeds the query `slow`. */
  function fakeEmbedder() {
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => (open = r));
    const embedder: Embedder = {
      id: 'fake-embedder',
      async embed(texts) {
        if (texts[0] === 'slow') await gate;
        return texts.map((t) => Float32Array.from(t === 'down' ? [-1, 0] : t === 'up' ? [1, 0] : [1, 0.1]));
      },
    };
    return { embedder, open };
  }

  it('says once per model when its embedding features cannot be used because the embedder is another', async () => {
    const errors: string[] = [];
    const other: Embedder = { id: 'fake-embedder:fp32', embed: async (texts) => texts.map(() => Float32Array.from([1, 0])) };
    const c = collector([served('m1'), served('m2')]);
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      embedder: other,
      fetch: c.fetch,
      onError: (e) => errors.push(e.message),
    });
    const chunks = [
      { chunkId: 'a', text: 'down' },
      { chunkId: 'b', text: 'up' },
    ];
    await reranker.rerank('q', chunks);
    await reranker.rerank('q', chunks);
    await reranker.refresh();
    await reranker.rerank('q', chunks);
    const said = 'model m1 was trained with the embedder fake-embedder, and this reranker has fake-embedder:fp32: its embedding features sit at their mean';
    expect(errors).toEqual([said, said.replace('m1', 'm2')]);
  });

  it("embeds a chunk's new text when its id comes back with other text", async () => {
    const { embedder } = fakeEmbedder();
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', embedder, fetch: collector([served('m1')]).fetch });
    const first = await reranker.rerank('q', [
      { chunkId: 'a', text: 'down' },
      { chunkId: 'b', text: 'up' },
    ]);
    expect(first.map((r) => r.chunkId)).toEqual(['b', 'a']);
    // The documents were edited and re-indexed under the same chunk ids.
    const second = await reranker.rerank('q', [
      { chunkId: 'a', text: 'up' },
      { chunkId: 'b', text: 'down' },
    ]);
    expect(second.map((r) => r.chunkId)).toEqual(['a', 'b']);
  });

  /** Plain arrays, as an embedder written in JavaScript may answer against its type: one for every text, to spare memory. */
  const plainArrays = (dims: number) => {
    const one = new Array<number>(dims).fill(1);
    return () => one as unknown as Float32Array;
  };
  it.each([
    ['Float32Array', (dims: number) => () => new Float32Array(dims).fill(1)],
    ['plain arrays', plainArrays],
  ])('keeps its chunk vectors within CHUNK_VECTOR_CACHE_BYTES, embedding again the oldest it let go, given %s', async (_, vectorsOf) => {
    // An embedder of a million dimensions: four megabytes a vector as float32, so 17 chunks pass the bound.
    const dims = 1_000_000;
    const count = Math.ceil(CHUNK_VECTOR_CACHE_BYTES / (4 * dims)) + 1;
    const asked: string[][] = [];
    const vector = vectorsOf(dims);
    const embedder: Embedder = {
      id: 'fake-embedder',
      async embed(texts) {
        asked.push([...texts]);
        return texts.map(vector);
      },
    };
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', embedder, fetch: collector([served('m1')]).fetch });
    const chunks = Array.from({ length: count }, (_, i) => ({ chunkId: `c${i}`, text: `chunk ${i}` }));
    await reranker.rerank('q', chunks);
    expect(asked.at(-1)).toHaveLength(count + 1);
    await reranker.rerank('q', [chunks[count - 1]!]);
    expect(asked.at(-1)).toEqual(['q']);
    await reranker.rerank('q', [chunks[0]!]);
    expect(asked.at(-1)).toEqual(['q', 'chunk 0']);
  });

  it('ranks with every chunk its vector when a new model arrives while the query is embedded', async () => {
    const { embedder, open } = fakeEmbedder();
    const c = collector([served('m1'), served('m2')]);
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', embedder, fetch: c.fetch });
    const chunks = [
      { chunkId: 'a', text: 'down' },
      { chunkId: 'b', text: 'up' },
    ];
    expect((await reranker.rerank('q', chunks)).map((r) => r.chunkId)).toEqual(['b', 'a']);
    const ranking = reranker.rerank('slow', [...chunks, { chunkId: 'c', text: 'down' }]);
    await reranker.refresh();
    expect(reranker.version).toBe('m2');
    open();
    const ranked = await ranking;
    expect(ranked.map((r) => r.chunkId)).toEqual(['b', 'a', 'c']);
    expect(ranked[0]!.rerankScore).toBeGreaterThan(0.9);
    // What a trace logs: the model that ranked this list, not the one in use by the time it is read.
    expect(ranked.map((r) => r.rerankerVersion)).toEqual(['m1', 'm1', 'm1']);
  });
});

describe('createReranker with scores that are not numbers', () => {
  it('ranks a score of NaN or Infinity as no score, and never answers a rerankScore a trace could not hold', async () => {
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([modelResponse]).fetch });
    const broken = query.candidates.map((c, i) => ({ ...c, score: i === 1 ? Number.NaN : i === 3 ? Number.POSITIVE_INFINITY : c.score }));
    const absent = query.candidates.map((c, i) => ({ ...c, score: i === 1 || i === 3 ? undefined : c.score }));
    const ranked = await reranker.rerank(query.query, broken);
    expect(reranker.version).toBe('v7');
    expect(ranked.every((r) => Number.isFinite(r.rerankScore))).toBe(true);
    const expected = await reranker.rerank(query.query, absent);
    expect(ranked.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank])).toEqual(expected.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank]));
    // The caller's chunks come back as given.
    expect(ranked.find((r) => r.retrievalRank === 2)!.score).toBeNaN();

    // A model whose weights overflow (made by hand: training never writes such) ranks nothing: retrieval's order, said why.
    const errors: Error[] = [];
    const huge = { ...model, version: 'v8', weights: model.weights.map((_, i) => (i % 2 ? -1e308 : 1e308)) };
    const overflowing = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: collector([() => new Response(JSON.stringify(huge))]).fetch,
      onError: (e) => errors.push(e),
    });
    const inOrder = await overflowing.rerank(query.query, query.candidates);
    expect(overflowing.version).toBe('v8');
    expect(inOrder.map((r) => r.chunkId)).toEqual(query.candidates.map((c) => c.chunkId));
    expect(inOrder.every((r) => Number.isFinite(r.rerankScore) && r.rerankerVersion === undefined)).toBe(true);
    expect(errors.map((e) => e.message)).toEqual(["reranker v8 scored a chunk beyond a number; retrieval's order kept"]);

    const none = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([() => new Response(null, { status: 503 })]).fetch });
    const kept = await none.rerank('q', [
      { chunkId: 'a', text: 'x', score: Number.NaN },
      { chunkId: 'b', text: 'y', score: 0.5 },
    ]);
    expect(kept.map((r) => r.chunkId)).toEqual(['a', 'b']);
    expect(kept.every((r) => Number.isFinite(r.rerankScore))).toBe(true);
    // Best first, as the list says: scored by rank when retrieval's scores cannot say so.
    expect(kept[0]!.rerankScore).toBeGreaterThan(kept[1]!.rerankScore);
  });
});

describe('createReranker options', () => {
  it('refuses, when it is made, options it could not work with, naming the option', () => {
    const base = { endpoint: 'http://collector.test', serverKey: 'rfs_x' };
    expect(() => createReranker({ ...base, endpoint: undefined as never })).toThrow(/endpoint/);
    expect(() => createReranker({ ...base, endpoint: 'https://feedback.example.com/\n' })).toThrow(/endpoint/);
    expect(() => createReranker({ ...base, serverKey: 'rfs_x\n' })).toThrow(/serverKey/);
    // NaN would never revalidate, so a promotion would never arrive.
    expect(() => createReranker({ ...base, refreshMs: Number.NaN })).toThrow(/refreshMs/);
    expect(() => createReranker({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(createReranker({ ...base, refreshMs: 0, timeoutMs: 0 })).toBeDefined();
    // Never of itself: a backend that picks up promotions with refresh() alone.
    expect(createReranker({ ...base, refreshMs: Number.POSITIVE_INFINITY })).toBeDefined();
    expect(() => createReranker({ ...base, timeoutMs: Number.POSITIVE_INFINITY })).toThrow(/timeoutMs/);
    // Longer than a timer can wait: it would fire at once, and no model would ever arrive.
    expect(() => createReranker({ ...base, timeoutMs: Number.MAX_SAFE_INTEGER })).toThrow(/timeoutMs must be a number from 0 to 2147483647/);
    expect(createReranker({ ...base, timeoutMs: 2 ** 31 - 1 })).toBeDefined();
    // Neither a function nor a service binding: every model fetch would fail.
    expect(() => createReranker({ ...base, fetch: { get: () => {} } as never })).toThrow(/fetch must be a function or a service binding, not object/);
    expect(() => createReranker({ ...base, onError: 'console' as never })).toThrow(/onError must be a function, not string/);
    expect(createReranker({ ...base, fetch: undefined, onError: undefined })).toBeDefined();
  });
});

describe('createReranker when the embedder fails', () => {
  it('ranks with the model as without an embedder, so the version it reports is the one that ranked, and says why', async () => {
    const withMeaning: RerankerModel = {
      ...model,
      version: 'v8',
      features: [...model.features, 'embedding_similarity'],
      weights: [...model.weights, 1],
      mean: [...model.mean, 0],
      scale: [...model.scale, 1],
      embedder: 'broken-embedder',
    };
    const errors: string[] = [];
    const embedder: Embedder = {
      id: 'broken-embedder',
      embed: async () => {
        throw new Error('onnxruntime: out of memory');
      },
    };
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      embedder,
      fetch: collector([() => new Response(JSON.stringify(withMeaning), { headers: { ETag: '"v8"' } })]).fetch,
      onError: (e) => errors.push(e.message),
    });
    const ranked = await reranker.rerank(query.query, query.candidates);
    expect(reranker.version).toBe('v8');
    expect(ranked.map((r) => r.chunkId)).toEqual(rerankWithModel(withMeaning, query.query, query.candidates).map((r) => r.chunkId));
    expect(ranked[0]!.chunkId).toBe('rel-3');
    expect(errors).toEqual(['onnxruntime: out of memory']);
  });
});

describe('createReranker when the embedder hangs', () => {
  it('ranks without its vectors after timeoutMs, says why, and uses them once they come', async () => {
    const withMeaning: RerankerModel = {
      ...tinyModel('v9'),
      features: ['embedding_similarity'],
      weights: [1],
      mean: [0],
      scale: [1],
      embedder: 'remote-embedder',
    };
    const errors: string[] = [];
    let answer: () => void = () => {};
    // A remote embedding service that stops answering (or a model still downloading): the first call waits until told.
    const reachable = new Promise<void>((r) => (answer = r));
    const embedder: Embedder = {
      id: 'remote-embedder',
      embed: async (texts) => {
        await reachable;
        return texts.map((t) => Float32Array.from(t === 'down' ? [-1, 0] : [1, 0]));
      },
    };
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      embedder,
      timeoutMs: 50,
      fetch: collector([() => new Response(JSON.stringify(withMeaning), { headers: { ETag: '"v9"' } })]).fetch,
      onError: (e) => errors.push(e.message),
    });
    const chunks = [
      { chunkId: 'a', text: 'down' },
      { chunkId: 'b', text: 'up' },
    ];
    const started = Date.now();
    const first = await Promise.race([reranker.rerank('q', chunks), new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 2_000))]);
    expect(first).not.toBe('still waiting');
    expect(Date.now() - started).toBeLessThan(1_000);
    // The model still ranked, its embedding feature at its mean.
    expect((first as { rerankerVersion?: string }[]).map((r) => r.rerankerVersion)).toEqual(['v9', 'v9']);
    expect(errors).toEqual(['embedder remote-embedder answered no vectors within 50 ms: ranked without them']);
    answer();
    expect((await reranker.rerank('q', chunks)).map((r) => r.chunkId)).toEqual(['b', 'a']);
  });
});

describe('createReranker given what is not a list of candidates', () => {
  it("keeps retrieval's order without rejecting, and tells onError which field is wrong", async () => {
    const errors: string[] = [];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: collector([modelResponse]).fetch,
      onError: (e) => errors.push(e.message),
    });
    // A search library's hits passed as they are (`content`, not `text`), a gap in the list, no list at all.
    const good = { chunkId: 'a', text: 'refunds within 14 days', score: 0.9 };
    const hits = [good, { chunkId: 'b', content: 'shipping takes 3-5 days', score: 0.8 }];
    expect((await reranker.rerank('refunds', hits as never)).map((r) => r.chunkId)).toEqual(['a', 'b']);
    expect((await reranker.rerank('refunds', [good, null] as never)).map((r) => r.retrievalRank)).toEqual([1, 2]);
    expect(await reranker.rerank('refunds', undefined as never)).toEqual([]);
    expect((await reranker.rerank(undefined as never, [good])).map((r) => r.chunkId)).toEqual(['a']);
    expect(errors).toEqual([
      'rerank: chunks[1].text: is required',
      'rerank: chunks[1]: Invalid type: Expected Object but received null',
      'rerank: chunks: Invalid type: Expected Array but received undefined',
      'rerank: query: Invalid type: Expected string but received undefined',
    ]);
  });
});

describe("createReranker given the backend's own chunk class", () => {
  /** A backend's chunk: its text behind a getter, a method, a field of its own. */
  class Hit {
    constructor(
      readonly chunkId: string,
      private readonly body: string,
      readonly score: number,
      readonly sourceDocId?: string,
    ) {}
    get text(): string {
      return this.body;
    }
    cite(): string {
      return `[${this.chunkId}]`;
    }
  }
  const hitsOf = (candidates: typeof query.candidates) => candidates.map((c) => new Hit(c.chunkId, c.text, c.score as number, c.sourceDocId));

  it('gives back its own kind of object, getters and methods working, ranked as the same plain chunks are, the chunks given unchanged', async () => {
    const plain = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([modelResponse]).fetch });
    const expected = await plain.rerank(query.query, query.candidates);
    const errors: Error[] = [];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: collector([modelResponse]).fetch,
      onError: (e) => errors.push(e),
    });
    const hits = hitsOf(query.candidates);
    const ranked = await reranker.rerank(query.query, hits);
    expect(errors).toEqual([]);
    expect(ranked.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank, r.rerankerVersion])).toEqual(
      expected.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank, 'v7']),
    );
    for (const r of ranked) {
      const given = hits[r.retrievalRank - 1]!;
      expect(r).toBeInstanceOf(Hit);
      expect(r.text).toBe(given.text);
      expect(r.cite()).toBe(`[${given.chunkId}]`);
      expect(r).not.toBe(given);
      expect(Object.keys(given)).not.toContain('rerankScore');
    }
    // What a trace logs of them, as the README maps it: nothing missing.
    expect(ranked.map((c) => c.text)).toEqual(expected.map((c) => c.text));

    // A score of NaN is ranked as no score, the getter's text still read.
    const withNaN = hitsOf(query.candidates.map((c, i) => ({ ...c, score: i === 1 ? Number.NaN : c.score })));
    const withNone = query.candidates.map((c, i) => ({ ...c, score: i === 1 ? undefined : c.score }));
    const [fromHits, fromPlain] = [await reranker.rerank(query.query, withNaN), await reranker.rerank(query.query, withNone)];
    expect(fromHits.map((r) => [r.chunkId, r.rerankScore])).toEqual(fromPlain.map((r) => [r.chunkId, r.rerankScore]));
    expect(fromHits.map((r) => r.cite())).toEqual(fromPlain.map((r) => `[${r.chunkId}]`));
    expect(errors).toEqual([]);
  });

  it('copies a plain object as rerankWithModel does, its own getter read into a value, where a class keeps its getters', async () => {
    const chunks = query.candidates.map((c) => {
      const { text, ...rest } = c;
      return Object.defineProperty(rest, 'text', {
        get: () => text,
        enumerable: true,
      }) as typeof c;
    });
    const reranker = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([modelResponse]).fetch });
    const ranked = await reranker.rerank(query.query, chunks);
    expect(ranked.map((r) => Object.getOwnPropertyDescriptors(r))).toEqual(
      rerankWithModel(model, query.query, query.candidates).map((r) => Object.getOwnPropertyDescriptors(r)),
    );
  });

  it("reads each chunk's text and score once, a plain chunk's own getters or a class's, ranked by a model, in retrieval's order, or refused", async () => {
    const reads = new Map<string, number>();
    const scoreReads = new Map<string, number>();
    const countedScore = (chunkId: string, score: number | undefined) => {
      scoreReads.set(chunkId, (scoreReads.get(chunkId) ?? 0) + 1);
      return score;
    };
    /** A text that says how often it was read: the copy given back holds the read it was ranked by. */
    const counted = (chunkId: string, text: string) => {
      const n = (reads.get(chunkId) ?? 0) + 1;
      reads.set(chunkId, n);
      return n === 1 ? text : `${text} (read ${n} times)`;
    };
    const plain = (candidates: typeof query.candidates) =>
      candidates.map(({ text, score, ...rest }) =>
        Object.defineProperties(
          { ...rest },
          {
            text: { get: () => counted(rest.chunkId, text), enumerable: true },
            score: { get: () => countedScore(rest.chunkId, score), enumerable: true },
          },
        ),
      ) as typeof query.candidates;
    class Counted {
      constructor(
        readonly chunkId: string,
        private readonly retrievalScore: number | undefined,
        readonly sourceDocId: string | undefined,
        private readonly body: string,
      ) {}
      get text(): string {
        return counted(this.chunkId, this.body);
      }
      get score(): number | undefined {
        return countedScore(this.chunkId, this.retrievalScore);
      }
    }
    const instances = (candidates: typeof query.candidates) => candidates.map((c) => new Counted(c.chunkId, c.score, c.sourceDocId, c.text));
    const expected = await createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([modelResponse]).fetch }).rerank(
      query.query,
      query.candidates,
    );
    const withModel = createReranker({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: collector([modelResponse]).fetch });
    const noModel = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: collector([() => new Response(null, { status: 503 })]).fetch,
    });
    const byId = new Map(query.candidates.map((c) => [c.chunkId, c.text]));
    for (const chunks of [plain(query.candidates), instances(query.candidates)]) {
      for (const [reranker, order] of [
        [withModel, expected.map((r) => r.chunkId)],
        [noModel, query.candidates.map((c) => c.chunkId)],
      ] as const) {
        reads.clear();
        scoreReads.clear();
        const ranked = await reranker.rerank(query.query, chunks);
        expect(ranked.map((r) => r.chunkId)).toEqual(order);
        expect([...reads.values()]).toEqual(chunks.map(() => 1));
        expect([...scoreReads.values()]).toEqual(chunks.map(() => 1));
        // A class instance's copy keeps its getter, which reads again: a plain chunk's holds its one read.
        if (!(chunks[0] instanceof Counted)) expect(ranked.map((r) => r.text)).toEqual(order.map((id) => byId.get(id)));
      }
      // A list with a chunk it cannot rank is retrieval's order, each text and score still read once.
      reads.clear();
      scoreReads.clear();
      const refused = await withModel.rerank(query.query, [...chunks, { chunkId: 'no text' }] as never);
      expect(refused.map((r) => r.retrievalRank)).toEqual([...chunks, 0].map((_, i) => i + 1));
      expect([...reads.values()]).toEqual(chunks.map(() => 1));
      expect([...scoreReads.values()]).toEqual(chunks.map(() => 1));
    }
  });

  it("gives back its own kind of object in retrieval's order too, with no model", async () => {
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: 'rfs_x',
      fetch: collector([() => new Response(null, { status: 503 })]).fetch,
    });
    const hits = hitsOf(query.candidates);
    const kept = await reranker.rerank(query.query, hits);
    expect(kept.map((r) => [r.chunkId, r.retrievalRank, r.rerankerVersion])).toEqual(hits.map((h, i) => [h.chunkId, i + 1, undefined]));
    expect(kept.map((r) => [r.text, r.cite()])).toEqual(hits.map((h) => [h.text, h.cite()]));
    expect(kept.every((r) => r instanceof Hit)).toBe(true);
  });
});
