import type { Candidate, Reranked } from './candidate.ts';
import { type Ranking, readOnce } from './ranked-copy.ts';

/**
 * Retrieval's order, as a ranking no model made: scored so that each chunk scores at least the next,
 * by retrieval's scores when they are all finite and best first, otherwise by rank (so a trace can
 * log them as the stage's scores, and a backend sorting by them keeps the order).
 */
export function retrievalRanking(chunks: readonly { score?: number }[]): Ranking[] {
  // Each score read once (a getter may be costly, or answer otherwise when read again). `?.`: a list
  // `rerank()` was wrongly given may hold null.
  const scores = chunks.map((c) => c?.score);
  const byScore = scores.every((s, i) => Number.isFinite(s) && (i === 0 || (s as number) <= (scores[i - 1] as number)));
  // No model ranked it, whatever a list ranked before says.
  return scores.map((s, i) => ({ rerankScore: byScore ? (s as number) : -i, retrievalRank: i + 1, rerankerVersion: undefined }));
}

/** The chunks in retrieval's order, each a copy with its ranking (see retrievalRanking), each chunk read once (see readOnce). */
export function inRetrievalOrder<C extends Candidate>(chunks: readonly C[]): Reranked<C>[] {
  const { read, ranked } = readOnce(chunks);
  return ranked(retrievalRanking(read));
}
