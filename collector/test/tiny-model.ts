import { RERANKER_FORMAT, type RerankerModel } from '../../shared/reranker/model.ts';

/** The smallest artifact the registry takes: retrieval's own score, one feature. */
export const tinyModel = (version: string): RerankerModel => ({
  format: RERANKER_FORMAT,
  version,
  createdAt: Date.UTC(2026, 10, 1),
  features: ['retrieval_score'],
  weights: [1],
  mean: [0.5],
  scale: [0.25],
  priors: { chunks: { c1: [1, 0] }, documents: {} },
  engagement: { baseRate: 0.1, chunks: {}, documents: {} },
  memory: { queries: [], judgements: [] },
  examination: [1, 0.6],
  training: { confirmed: 30, queries: 10, pairs: 40 },
});
