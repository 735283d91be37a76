import type { Candidate, Reranked } from './candidate.ts';
import { type Ranking, rankedCopy } from './ranked-copy.ts';

/**
 * Retrieval's order, as a ranking no model made: scored so that each chunk scores at least the next,
 * by retrieval's scores when they are all finite and best first, otherwise by rank (so a trace can
 * log them as the stage's scores, and a backend sorting by them keeps the order).
 */
export function retrievalRanking(chunks: readonly { score?: number }[]): Ranking[] {
  // `?.`: a list `rerank()` was wrongly given may hold null.
  const byScore = chunks.every((c, i) => Number.isFinite(c?.score) && (i === 0 || (c.score as number) <= (chunks[i - 1]!.score as number)));
  // No model ranked it, whatever a list ranked before says.
  return chunks.map((c, i) => ({ rerankScore: byScore ? (c.score as number) : -i, retrievalRank: i + 1, rerankerVersion: undefined }));
}

/** The chunks in retrieval's order, each a copy with its ranking (see retrievalRanking). */
export function inRetrievalOrder<C extends Candidate>(chunks: readonly C[]): Reranked<C>[] {
  return retrievalRanking(chunks).map((r, i) => rankedCopy(chunks[i]!, r));
}
