import { describe, expect, it } from 'vitest';
import { parseRerankerModel, RERANKER_FORMAT, type RerankerModel } from './model.ts';
import { rerankWithModel } from './rerank.ts';
import { packVector } from './vectors.ts';

const model = (overrides: Partial<RerankerModel> = {}): RerankerModel => ({
  format: RERANKER_FORMAT,
  version: 'v1',
  createdAt: Date.UTC(2026, 10, 1),
  features: ['document_prior'],
  weights: [1],
  mean: [0],
  scale: [1],
  priors: { chunks: {}, documents: {} },
  engagement: { baseRate: 0.1, chunks: {}, documents: {} },
  memory: { queries: [], judgements: [] },
  examination: [1, 0.6],
  training: { confirmed: 30, queries: 10, pairs: 40 },
  ...overrides,
});

describe('the artifact schema', () => {
  it("refuses a judged query's vector that is not base64, which ranking could not unpack, and takes one packVector wrote", () => {
    const withVector = (vector: string) => model({ memory: { queries: [{ terms: ['refund'], vector }], judgements: [] } });
    expect(() => parseRerankerModel(withVector('not base64!!'))).toThrow('not a reranker model: memory.queries.0.vector: must be base64');
    expect(() => parseRerankerModel(withVector('AAE'))).toThrow('memory.queries.0.vector: must be base64');
    const packed = parseRerankerModel(withVector(packVector(new Float32Array([0.5, -1, 0.25]))));
    expect(() => rerankWithModel(packed, 'refund', [{ chunkId: 'c', text: 'refund', score: 1 }])).not.toThrow();
  });
});
