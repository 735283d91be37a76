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

export interface Reranker {
  /** Logged on every trace as `rerankerVersion`, so retraining knows what it must beat. */
  version?: string;
  /** The candidates in the reranker's order, each with its own score. */
  rerank(query: string, candidates: readonly Scored[]): Scored[] | Promise<Scored[]>;
}

/** Keeps retrieval's order and scores. */
export const identityReranker: Reranker = { rerank: (_query, candidates) => [...candidates] };
