/**
 * The reranking seam: retrieval's candidates go through a `Reranker` before the answer is built:
 * the collector's promoted model (promoted-reranker.ts) when the demo has a collector, retrieval's
 * own order otherwise; traces carry the version that ranked them.
 */
import type { Chunk } from '../corpus/chunk.ts';

/** A chunk with the score the last stage gave it. */
export interface Scored {
  chunk: Chunk;
  score: number;
}

/** The candidates in a reranker's order, each with its own score, and what ranked them. */
export interface Ranking {
  ranked: Scored[];
  /** Logged on the trace as `rerankerVersion`, so retraining knows what it must beat; none in retrieval's order. */
  version?: string;
}

export interface Reranker {
  rerank(query: string, candidates: readonly Scored[]): Ranking | Promise<Ranking>;
}

/** Keeps retrieval's order and scores. */
export const identityReranker: Reranker = { rerank: (_query, candidates) => ({ ranked: [...candidates] }) };
