import { describe, expect, it } from 'vitest';
import { parseRerankerModel } from '../reranker/model.ts';
import { rerankWithModel } from '../reranker/rerank.ts';
import { queryKey } from '../terms.ts';
import { dominantOrigin } from './dominance.ts';
import { estimateExamination } from './examination.ts';
import { trainingWorld } from './fixture.ts';
import { decide, evaluate, retrievalOrder } from './gate.ts';
import { consolidate, trainReranker } from './train.ts';

const options = { version: 'v1', now: 1_767_225_600_000 };

describe('trainReranker', () => {
  it('improves nDCG@5 on held-out queries worded differently from the training ones', () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, options);
    const base = evaluate(retrievalOrder, heldOut);
    const trained = evaluate((q, c) => rerankWithModel(model, q, c).map((r) => r.chunkId), heldOut);
    expect(base.overall.queries).toBe(40);
    expect(trained.overall.ndcg5).toBeGreaterThan(base.overall.ndcg5 + 0.1);
    expect(decide(trained, base).promote).toBe(true);
  });

  it('leaves each training query out of its own features, so the memory is not a perfect answer key', () => {
    // Each topic judged once: with the query itself left out, memory says nothing about it in training.
    const { data } = trainingWorld(10);
    const { model } = trainReranker(data, options);
    const memory = model.features.indexOf('memory_relevant');
    expect(model.weights[memory]).toBeCloseTo(0, 6);
  });

  it('writes an artifact that parses, and grows with judgements rather than traffic', () => {
    const small = trainReranker(trainingWorld(20).data, options).model;
    const { data } = trainingWorld(20);
    const busy = { ...data, engagement: Array.from({ length: 5000 }, (_, i) => ({ chunkId: `rel-${i % 20}`, rank: 1 + (i % 5), shown: 3, engaged: i % 2 })) };
    const trafficked = trainReranker(busy, options).model;
    expect(parseRerankerModel(JSON.stringify(small)).version).toBe('v1');
    expect(JSON.stringify(trafficked).length).toBeLessThan(JSON.stringify(small).length * 1.5);
    expect(trainReranker(trainingWorld(40).data, options).model.memory.judgements).toHaveLength(80);
  });

  it('trains nothing from a verdict the reviewers split on', () => {
    const c = { queryKey: queryKey('q'), query: 'q', chunkId: 'c', sourceDocId: 'd' };
    expect(
      consolidate([
        { ...c, relevance: 1 },
        { ...c, relevance: 0 },
      ]),
    ).toEqual([]);
    expect(
      consolidate([
        { ...c, relevance: 1 },
        { ...c, relevance: 0 },
        { ...c, relevance: 1 },
      ]),
    ).toEqual([{ ...c, relevance: 1 }]);
  });
});

describe('the gate', () => {
  it('rejects a candidate worse than the current model and says why', () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, options);
    const good = evaluate((q, c) => rerankWithModel(model, q, c).map((r) => r.chunkId), heldOut);
    const worse = evaluate(retrievalOrder, heldOut);
    const decision = decide(worse, good);
    expect(decision.promote).toBe(false);
    expect(decision.reasons.join(' ')).toMatch(/nDCG@5 gain -\d\.\d{3} is below the minimum/);
    expect(decision.reasons.join(' ')).toMatch(/layer (echo|variant) loses/);
  });

  it('cannot judge on too few held-out queries', () => {
    const { heldOut } = trainingWorld(4);
    const e = evaluate(retrievalOrder, heldOut);
    expect(decide(e, e).reasons[0]).toBe('only 4 judged held-out queries; the gate needs 10');
  });
});

describe('position bias', () => {
  it('estimates examination falling with rank, relative to rank 1, never below the floor', () => {
    const rows = [1, 2, 3, 4].map((rank) => ({ chunkId: `c${rank}`, rank, shown: 1000, engaged: Math.round(400 / rank) }));
    const e = estimateExamination(rows, undefined, 5);
    expect(e.slice(0, 4).map((x) => Number(x.toFixed(2)))).toEqual([1, 0.5, 0.33, 0.25]);
    expect(e[4]).toBe(e[3]);
    expect(
      estimateExamination([
        { chunkId: 'a', rank: 1, shown: 1000, engaged: 1000 },
        { chunkId: 'b', rank: 2, shown: 1000, engaged: 0 },
      ])[1],
    ).toBe(0.05);
  });

  it('credits a chunk clicked at a low rank more than one clicked as often at the top', () => {
    const { data } = trainingWorld(20);
    const engagement = [
      ...[1, 2, 3, 4, 5].map((rank) => ({ chunkId: `filler-${rank}`, rank, shown: 1000, engaged: Math.round(300 / rank) })),
      { chunkId: 'top', rank: 1, shown: 100, engaged: 30 },
      { chunkId: 'low', rank: 5, shown: 100, engaged: 30 },
    ];
    const { model } = trainReranker({ ...data, engagement }, options);
    const [top, low] = [model.engagement.chunks.top!, model.engagement.chunks.low!];
    expect(low[0] / low[1]).toBeGreaterThan(3 * (top[0] / top[1]));
  });
});

describe('dominance', () => {
  it('finds the session behind most of a batch', () => {
    const { data } = trainingWorld(10, (t) => (t < 6 ? 'flood' : `s${t}`));
    expect(dominantOrigin(data.confirmed, 0.3)).toEqual({ kind: 'session', id: 'flood', share: 0.6 });
    expect(dominantOrigin(trainingWorld(10).data.confirmed, 0.3)).toBeNull();
  });
});
