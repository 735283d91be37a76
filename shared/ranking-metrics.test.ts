import { describe, expect, it } from 'vitest';
import { meanOverQueries, mrrAt, ndcgAt, recallAt } from './ranking-metrics.ts';

// a is highly relevant (2), b relevant (1), c judged not relevant (0), x unjudged.
const judged = new Map([
  ['a', 2],
  ['b', 1],
  ['c', 0],
]);
const ranked = ['c', 'b', 'x', 'a'];

describe('ndcgAt', () => {
  it('uses linear gains and the log2(rank + 1) discount, as trec_eval (hand-computed)', () => {
    // DCG@3 = 1 / log2(3); ideal = 2 / log2(2) + 1 / log2(3).
    expect(ndcgAt(3, ranked, judged)).toBeCloseTo(1 / Math.log2(3) / (2 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(3, ranked, judged)).toBeCloseTo(0.239812, 6);
    // DCG@10 adds a at rank 4: 2 / log2(5).
    expect(ndcgAt(10, ranked, judged)).toBeCloseTo((1 / Math.log2(3) + 2 / Math.log2(5)) / (2 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(10, ranked, judged)).toBeCloseTo(0.567207, 6);
  });

  it('is 1 for the ideal order and 0 without relevant documents', () => {
    expect(ndcgAt(10, ['a', 'b'], judged)).toBe(1);
    expect(ndcgAt(10, ['b', 'a'], judged)).toBeLessThan(1);
    expect(ndcgAt(1, ['c', 'a'], judged)).toBe(0);
    expect(ndcgAt(10, ['a'], new Map([['a', 0]]))).toBe(0);
    expect(ndcgAt(10, [], judged)).toBe(0);
  });

  it('cuts the ideal list at k too', () => {
    // Only one slot: the ideal is the grade-2 document alone.
    expect(ndcgAt(1, ['a'], judged)).toBe(1);
    expect(ndcgAt(1, ['b'], judged)).toBe(0.5);
  });
});

describe('mrrAt', () => {
  it('is the reciprocal rank of the first relevant document within k', () => {
    expect(mrrAt(10, ranked, judged)).toBe(0.5);
    expect(mrrAt(1, ranked, judged)).toBe(0);
    expect(mrrAt(10, ['x', 'y', 'a'], judged)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(10, ['c', 'x'], judged)).toBe(0);
  });
});

describe('recallAt', () => {
  it('is the share of relevant documents within k', () => {
    expect(recallAt(1, ranked, judged)).toBe(0);
    expect(recallAt(2, ranked, judged)).toBe(0.5);
    expect(recallAt(4, ranked, judged)).toBe(1);
    expect(recallAt(10, ranked, new Map([['c', 0]]))).toBe(0);
  });
});

describe('meanOverQueries', () => {
  it('averages over judged queries: a judged query without results counts 0, an unjudged one is ignored', () => {
    const qrels = new Map([
      ['q1', judged],
      ['q2', new Map([['z', 1]])],
      ['q3', new Map([['a', 1]])],
    ]);
    const runs = new Map([
      ['q1', ranked],
      ['q2', ['z']],
      ['q-unjudged', ['a']],
    ]);
    expect(meanOverQueries(mrrAt, 10, runs, qrels)).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(meanOverQueries(recallAt, 2, runs, qrels)).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(meanOverQueries(ndcgAt, 10, runs, new Map())).toBe(0);
  });
});
