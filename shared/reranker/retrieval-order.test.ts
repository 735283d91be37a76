import { describe, expect, it } from 'vitest';
import { inRetrievalOrder, retrievalRanking } from './retrieval-order.ts';

/** Chunks whose score says how often it was read, of a class and plain with an own getter. */
function counted(scores: readonly (number | undefined)[]) {
  const reads = scores.map(() => 0);
  class Hit {
    constructor(
      readonly chunkId: string,
      private readonly i: number,
    ) {}
    get text() {
      return `text ${this.chunkId}`;
    }
    get score() {
      reads[this.i]!++;
      return scores[this.i];
    }
  }
  const plain = scores.map((_, i) =>
    Object.defineProperty({ chunkId: `p${i}`, text: `text p${i}` }, 'score', {
      get: () => {
        reads[i]!++;
        return scores[i];
      },
      enumerable: true,
    }),
  ) as { chunkId: string; text: string; score?: number }[];
  return { reads, instances: scores.map((_, i) => new Hit(`h${i}`, i)), plain };
}

describe("retrieval's order", () => {
  // Best first (ranked by score), out of order, and one without a score (both ranked by place).
  for (const scores of [
    [0.9, 0.5, 0.5, 0.1],
    [0.5, 0.9, 0.1],
    [0.9, undefined, 0.1],
  ]) {
    it(`reads each chunk's score once, a class's getter or a plain chunk's own, scores ${JSON.stringify(scores)}`, () => {
      const byScore = scores.every((s, i) => s !== undefined && (i === 0 || s <= scores[i - 1]!));
      const expected = scores.map((s, i) => (byScore ? s : -i));
      for (const kind of ['instances', 'plain'] as const) {
        const ranking = counted(scores);
        expect(retrievalRanking(ranking[kind]).map((r) => r.rerankScore)).toEqual(expected);
        expect(ranking.reads).toEqual(scores.map(() => 1));
        const ordered = counted(scores);
        const copies = inRetrievalOrder(ordered[kind]);
        expect(copies.map((r) => [r.chunkId, r.rerankScore, r.retrievalRank])).toEqual(ordered[kind].map((c, i) => [c.chunkId, expected[i], i + 1]));
        expect(ordered.reads).toEqual(scores.map(() => 1));
      }
    });
  }
});
