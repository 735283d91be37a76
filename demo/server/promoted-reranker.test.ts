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
});
