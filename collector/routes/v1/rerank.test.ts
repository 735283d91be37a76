import { describe, expect, it } from 'vitest';
import { bearer, call, newProject } from '../../test/fixtures.ts';

type Ranked = { version: string | null; chunks: { chunkId: string; rerankScore: number; retrievalRank: number }[] };

async function rerank(chunks: { chunkId: string; text: string; score?: number }[]): Promise<Ranked> {
  const p = await newProject();
  const res = await call('/v1/rerank', { method: 'POST', headers: bearer(p.keys.server), json: { query: 'refunds', chunks } });
  expect(res.status).toBe(200);
  return (await res.json()) as Ranked;
}

describe('POST /v1/rerank before any model is promoted', () => {
  it("keeps retrieval's order, scored by retrieval's scores when they run best first", async () => {
    const ranked = await rerank([
      { chunkId: 'a', text: 'Refunds within 14 days', score: 0.9 },
      { chunkId: 'b', text: 'Shipping', score: 0.4 },
    ]);
    expect(ranked).toEqual({
      version: null,
      chunks: [
        { chunkId: 'a', rerankScore: 0.9, retrievalRank: 1 },
        { chunkId: 'b', rerankScore: 0.4, retrievalRank: 2 },
      ],
    });
  });

  it('scores by rank when only some chunks have a score, so the scores never disagree with the order', async () => {
    const ranked = await rerank([
      { chunkId: 'a', text: 'Refunds within 14 days' },
      { chunkId: 'b', text: 'Shipping', score: 0.2 },
      { chunkId: 'c', text: 'Returns' },
    ]);
    expect(ranked.chunks.map((c) => c.chunkId)).toEqual(['a', 'b', 'c']);
    const scores = ranked.chunks.map((c) => c.rerankScore);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
  });
});
