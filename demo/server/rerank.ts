/**
 * The reranking seam: retrieval's candidates go through a `Reranker` before the answer is built.
 * The promoted model (`createReranker`, trained by the nightly loop) will plug in here; until
 * then the demo keeps retrieval's order, and its traces say so by having no reranker version.
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
