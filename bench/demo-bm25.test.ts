import { describe, expect, it } from 'vitest';
import { qualityRows } from './demo-bm25.ts';

describe("demo-bm25's quality rows", () => {
  const runs = new Map([['q1', ['d2', 'd1']]]);
  const judged = new Map([['q1', new Map([['d1', 1]])]]);

  it('holds SciFact to its published figure, named as the collection', () => {
    const [ndcg] = qualityRows('scifact', runs, judged);
    expect(ndcg).toMatchObject({ name: 'nDCG@10 on scifact test (BEIR paper BM25: 0.665)', budget: '>= 0.645' });
  });

  it('holds another collection to no published figure, and names it rather than SciFact', () => {
    const rows = qualityRows('nfcorpus', runs, judged);
    expect(rows.map((r) => r.name)).toEqual([
      'nDCG@10 on nfcorpus test (no published figure)',
      'nDCG@5 on nfcorpus test',
      'Recall@100 on nfcorpus test',
      'MRR@10 on nfcorpus test',
    ]);
    expect(rows.some((r) => r.budget)).toBe(false);
    expect(rows[3]!.median).toBe(0.5);
  });
});
