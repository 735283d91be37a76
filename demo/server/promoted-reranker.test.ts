import { describe, expect, it } from 'vitest';
import { trainingWorld } from '../../shared/training/fixture.ts';
import { trainReranker } from '../../shared/training/train.ts';
import { promotedReranker } from './promoted-reranker.ts';

/** A collector serving one model at a time, as `GET /v1/reranker` does (ETag, 304). */
function collector() {
  const models = new Map(['v1', 'v2'].map((version) => [version, JSON.stringify(trainReranker(trainingWorld().data, { version, now: 0 }).model)]));
  let served = 'v1';
  const fetch = async (request: Request) =>
    request.headers.get('If-None-Match') === served ? new Response(null, { status: 304 }) : new Response(models.get(served), { headers: { ETag: served } });
  return { fetch, promote: (version: string) => (served = version) };
}

const candidates = [{ chunk: { chunkId: 'c1', sourceDocId: 'd1', sourceDocVersion: 'v', title: 't', text: 'alpha beta' }, score: 1 }];

describe('the demo’s promoted reranker', () => {
  it('ranks the next answer with a model promoted since the last one, when asked to revalidate first', async () => {
    const c = collector();
    const reranker = promotedReranker({ endpoint: 'http://collector.test', serverKey: 'k', fetch: c.fetch, revalidateWaitMs: 500 });
    expect((await reranker.rerank('alpha', candidates)).version).toBe('v1');
    expect(reranker.version).toBe('v1');
    c.promote('v2');
    expect((await reranker.rerank('alpha', candidates)).version).toBe('v2');
    expect(reranker.version).toBe('v2');
  });

  it('otherwise keeps the model it has for up to a minute, as backends do', async () => {
    const c = collector();
    const reranker = promotedReranker({ endpoint: 'http://collector.test', serverKey: 'k', fetch: c.fetch });
    await reranker.rerank('alpha', candidates);
    c.promote('v2');
    await reranker.rerank('alpha', candidates);
    expect(reranker.version).toBe('v1');
  });

  it('answers in retrieval order within its wait while the collector has not answered yet, then with the model once it has', async () => {
    const c = collector();
    let answer: () => void = () => {};
    const answered = new Promise<void>((r) => {
      answer = r;
    });
    // A collector slow to answer its first request: ranking must not wait for it beyond revalidateWaitMs.
    const fetch = async (request: Request) => {
      await answered;
      return c.fetch(request);
    };
    const reranker = promotedReranker({ endpoint: 'http://collector.test', serverKey: 'k', fetch, revalidateWaitMs: 20 });
    const late = new Promise<'late'>((r) => setTimeout(() => r('late'), 2_000));
    const first = await Promise.race([reranker.rerank('alpha', candidates), late]);
    expect(first).toEqual({ ranked: candidates });
    answer();
    expect((await reranker.rerank('alpha', candidates)).version).toBe('v1');
  });
});
