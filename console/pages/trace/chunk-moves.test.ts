import { describe, expect, it } from 'vitest';
import type { TraceChunk } from '../../api/types.ts';
import { chunkRows } from './chunk-moves.ts';

const ch = (chunkId: string, rank: number, score = 1 / rank): TraceChunk => ({ chunkId, rank, score, sourceDocId: 'd', sourceDocVersion: null, text: chunkId });

describe('chunkRows', () => {
  it('pairs each chunk before and after reranking, in the order the model saw them, with its move and citation', () => {
    const rows = chunkRows([ch('a', 1), ch('b', 2), ch('c', 3), ch('d', 4)], [ch('c', 1), ch('a', 2), ch('b', 3), ch('e', 4)], [{ n: 1, chunkId: 'c' }]);
    expect(rows.map((r) => [r.chunkId, r.retrieved?.rank ?? null, r.reranked?.rank ?? null, r.move, r.cited])).toEqual([
      ['c', 3, 1, { kind: 'up', by: 2 }, 1],
      ['a', 1, 2, { kind: 'down', by: 1 }, null],
      ['b', 2, 3, { kind: 'down', by: 1 }, null],
      ['e', null, 4, { kind: 'added' }, null],
      ['d', 4, null, { kind: 'dropped' }, null],
    ]);
  });

  it('shows no move without a reranker', () => {
    expect(chunkRows([ch('a', 1), ch('b', 2)], [], []).map((r) => r.move)).toEqual([null, null]);
  });
});
