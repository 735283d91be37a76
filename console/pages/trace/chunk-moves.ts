import type { TraceChunk } from '../../api/types.ts';

export interface ChunkRow {
  chunkId: string;
  sourceDocId: string;
  text: string;
  retrieved: { rank: number; score: number } | null;
  reranked: { rank: number; score: number } | null;
  /** How reranking moved it: `by` places up or down, or in or out of the list. */
  move: { kind: 'up' | 'down'; by: number } | { kind: 'same' | 'dropped' | 'added' } | null;
  /** Its [n] in the answer, if cited. */
  cited: number | null;
}

/**
 * The chunks of both stages side by side, one row per chunk in the order the model saw them
 * (chunks reranking dropped last, in retrieval order), with how each moved. Without a reranker
 * there is no move.
 */
export function chunkRows(retrieved: TraceChunk[], reranked: TraceChunk[], citations: { n: number; chunkId: string }[]): ChunkRow[] {
  const cite = new Map(citations.map((c) => [c.chunkId, c.n]));
  const before = new Map(retrieved.map((c) => [c.chunkId, c]));
  const after = new Map(reranked.map((c) => [c.chunkId, c]));
  const reranker = reranked.length > 0;
  const order = reranker ? [...reranked, ...retrieved.filter((c) => !after.has(c.chunkId))] : retrieved;
  return order.map((c) => {
    const b = before.get(c.chunkId);
    const a = after.get(c.chunkId);
    let move: ChunkRow['move'] = null;
    if (reranker) {
      if (!b) move = { kind: 'added' };
      else if (!a) move = { kind: 'dropped' };
      else if (a.rank < b.rank) move = { kind: 'up', by: b.rank - a.rank };
      else if (a.rank > b.rank) move = { kind: 'down', by: a.rank - b.rank };
      else move = { kind: 'same' };
    }
    return {
      chunkId: c.chunkId,
      sourceDocId: c.sourceDocId,
      text: c.text,
      retrieved: b ? { rank: b.rank, score: b.score } : null,
      reranked: a ? { rank: a.rank, score: a.score } : null,
      move,
      cited: cite.get(c.chunkId) ?? null,
    };
  });
}
