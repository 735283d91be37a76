import { describe, expect, it } from 'vitest';
import type { Candidate } from './candidate.ts';
import { RERANKER_FORMAT, type RerankerModel } from './model.ts';
import { rankingWithModel, rerankWithModel } from './rerank.ts';

/** Ranks by the document prior alone: `doc-good` was judged relevant, `doc-bad` not. */
const model: RerankerModel = {
  format: RERANKER_FORMAT,
  version: 'v7',
  createdAt: Date.UTC(2026, 10, 1),
  features: ['document_prior'],
  weights: [1],
  mean: [0],
  scale: [1],
  priors: { chunks: {}, documents: { 'doc-good': [5, 0], 'doc-bad': [0, 5] } },
  engagement: { baseRate: 0.1, chunks: {}, documents: {} },
  memory: { queries: [], judgements: [] },
  examination: [1, 0.6],
  training: { confirmed: 30, queries: 10, pairs: 40 },
};

describe('rerankWithModel', () => {
  it("gives a chunk of the caller's class back as that class, its getters and methods working, the chunk itself unchanged", () => {
    class Hit {
      constructor(
        readonly chunkId: string,
        readonly sourceDocId: string,
        private readonly body: string,
      ) {}
      get text(): string {
        return this.body;
      }
      cite(): string {
        return `${this.sourceDocId}#${this.chunkId}`;
      }
    }
    const hits = [new Hit('a', 'doc-bad', 'refunds take 5 days'), new Hit('b', 'doc-good', 'refunds within 14 days')];
    const ranked = rerankWithModel(model, 'refunds', hits);
    expect(ranked.map((r) => r.chunkId)).toEqual(['b', 'a']);
    expect(ranked[0]).toBeInstanceOf(Hit);
    expect(ranked.map((r) => [r.text, r.cite(), r.retrievalRank])).toEqual([
      ['refunds within 14 days', 'doc-good#b', 2],
      ['refunds take 5 days', 'doc-bad#a', 1],
    ]);
    expect(ranked[0]!.rerankScore).toBeGreaterThan(ranked[1]!.rerankScore);
    expect('rerankScore' in hits[0]!).toBe(false);
  });

  it('names its model as the one that ranked, not a version a list ranked before carried', () => {
    const before = [{ chunkId: 'a', sourceDocId: 'doc-good', text: 'x', rerankerVersion: 'v3' }];
    expect(rerankWithModel(model, 'q', before).map((r) => r.rerankerVersion)).toEqual(['v7']);
  });

  it('gives plain chunks back as the plain copies, every field kept, they always were', () => {
    const chunk = { chunkId: 'a', sourceDocId: 'doc-good', text: 'x', score: 0.4, title: 'Refunds' };
    const [ranked] = rerankWithModel(model, 'q', [chunk]);
    expect(Object.getPrototypeOf(ranked)).toBe(Object.prototype);
    expect(ranked).toStrictEqual({ ...chunk, rerankScore: ranked!.rerankScore, retrievalRank: 1, rerankerVersion: 'v7' });
  });

  it('copies each candidate once, rankingWithModel none: it gives the scores and places alone, its version stamped', () => {
    const listed: string[] = [];
    const counted = (c: { chunkId: string; sourceDocId: string; text: string }) =>
      new Proxy(c, {
        ownKeys(target) {
          listed.push(target.chunkId);
          return Reflect.ownKeys(target);
        },
      });
    const chunks = () => [counted({ chunkId: 'a', sourceDocId: 'doc-bad', text: 'x' }), counted({ chunkId: 'b', sourceDocId: 'doc-good', text: 'y' })];
    const ranking = rankingWithModel(model, 'q', chunks());
    expect(listed).toEqual([]);
    expect(ranking).toStrictEqual([
      { rerankScore: ranking[0]!.rerankScore, retrievalRank: 2, rerankerVersion: 'v7' },
      { rerankScore: ranking[1]!.rerankScore, retrievalRank: 1, rerankerVersion: 'v7' },
    ]);
    const ranked = rerankWithModel(model, 'q', chunks());
    expect(listed.sort()).toEqual(['a', 'b']);
    expect(ranked.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank, r.rerankerVersion])).toEqual(
      ranking.map((r) => [r.retrievalRank === 1 ? 'a' : 'b', r.rerankScore, r.retrievalRank, 'v7']),
    );
  });

  it("reads each candidate's fields once, a plain chunk's own getters or a class's, with a model that reads the text", () => {
    const reads: string[] = [];
    const counted =
      <T>(field: string, value: T) =>
      () => {
        reads.push(field);
        return value;
      };
    const plain = Object.defineProperties({} as { chunkId: string; sourceDocId: string; text: string; score: number }, {
      chunkId: { get: counted('chunkId', 'a'), enumerable: true },
      sourceDocId: { get: counted('sourceDocId', 'doc-good'), enumerable: true },
      text: { get: counted('text', 'refunds within 14 days'), enumerable: true },
      score: { get: counted('score', 0.5), enumerable: true },
    });
    class Hit {
      get chunkId() {
        return counted('chunkId', 'b')();
      }
      get sourceDocId() {
        return counted('sourceDocId', 'doc-bad')();
      }
      get text() {
        return counted('text', 'refunds take 5 days')();
      }
      get score() {
        return counted('score', 0.4)();
      }
    }
    // The query's words found in the text count too, so ranking reads the text.
    const reading: RerankerModel = { ...model, features: ['document_prior', 'query_coverage'], weights: [1, 1], mean: [0, 0], scale: [1, 1] };
    const scoreOf = (chunk: Candidate) => rerankWithModel(reading, 'refunds', [chunk])[0]!.rerankScore;
    expect(scoreOf({ chunkId: 'a', text: 'refunds' })).not.toBe(scoreOf({ chunkId: 'a', text: 'returns' }));
    for (const [chunk, values] of [
      [plain, { chunkId: 'a', sourceDocId: 'doc-good', text: 'refunds within 14 days', score: 0.5 }],
      [new Hit(), { chunkId: 'b', sourceDocId: 'doc-bad', text: 'refunds take 5 days', score: 0.4 }],
    ] as const) {
      reads.length = 0;
      expect(scoreOf(chunk)).toBe(scoreOf(values));
      expect(reads.sort()).toEqual(['chunkId', 'score', 'sourceDocId', 'text']);
    }
  });
});

describe('rankingWithModel with vectors', () => {
  const byMeaning: RerankerModel = { ...model, features: ['embedding_similarity'], embedder: 'e' };
  const candidates = [
    { chunkId: 'a', text: 'refunds within 14 days' },
    { chunkId: 'b', text: 'shipping to Canada' },
  ];
  const chunks = [Float32Array.from([1, 0]), Float32Array.from([0, 1])];

  it("scores a query's empty vector as one of zeros, like nothing, rather than throwing for its length", () => {
    const scores = (query: Float32Array) => rankingWithModel(byMeaning, 'refunds', candidates, { query, chunks }).map((r) => [r.retrievalRank, r.rerankScore]);
    expect(scores(new Float32Array(0))).toEqual(scores(Float32Array.from([0, 0])));
    expect(scores(new Float32Array(0))).toEqual([
      [1, 0],
      [2, 0],
    ]);
    expect(scores(Float32Array.from([0, 1]))).toEqual([
      [2, 1],
      [1, 0],
    ]);
  });
});
