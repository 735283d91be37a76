import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index, roundScore } from './bm25.ts';
import { terms } from './terms.ts';

const fruit = [{ text: 'apple banana' }, { text: 'apple apple cherry' }, { text: 'banana cherry cherry durian' }];

describe('Bm25Index', () => {
  it('scores as Lucene BM25 with k1 0.9 and b 0.4 (hand-computed)', () => {
    // N = 3, lengths 2, 3, 4 (average 3); "apple" is in 2 documents: idf = ln(1 + 1.5 / 2.5) = ln 1.6.
    const hits = new Bm25Index(fruit).search('apple');
    expect(hits.map((h) => h.index)).toEqual([1, 0]);
    // Document 1: tf 2, length 3: 1.9 * 2 / (2 + 0.9 * (0.6 + 0.4 * 3 / 3)).
    expect(hits[0]!.score).toBeCloseTo((Math.log(1.6) * 1.9 * 2) / (2 + 0.9), 8);
    // Document 0: tf 1, length 2: 1.9 * 1 / (1 + 0.9 * (0.6 + 0.4 * 2 / 3)).
    expect(hits[1]!.score).toBeCloseTo((Math.log(1.6) * 1.9) / (1 + 0.9 * (0.6 + (0.4 * 2) / 3)), 8);
  });

  it('sums the query terms, each occurrence of a repeated term counting again', () => {
    const index = new Bm25Index(fruit);
    const [apple] = index.search('apple').filter((h) => h.index === 0);
    const [banana] = index.search('banana').filter((h) => h.index === 0);
    const [both] = index.search('apple banana').filter((h) => h.index === 0);
    expect(both!.score).toBeCloseTo(apple!.score + banana!.score, 8);
    expect(index.search('apple apple')[0]!.score).toBeCloseTo(2 * index.search('apple')[0]!.score, 8);
  });

  it('searches with terms weighted by the caller: a weight scales its term, and a term of weight 0 counts for nothing', () => {
    const index = new Bm25Index(fruit);
    expect(index.queryTerms('Apple apple cherry')).toEqual(
      new Map([
        ['apple', 2],
        ['cherry', 1],
      ]),
    );
    const score = (hits: { index: number; score: number }[], i: number) => hits.find((h) => h.index === i)?.score;
    const apple = index.search('apple');
    const cherry = index.search('cherry');
    const mixed = index.searchTerms(
      new Map([
        ['apple', 1],
        ['cherry', 0.5],
      ]),
    );
    expect(score(mixed, 1)).toBeCloseTo(score(apple, 1)! + 0.5 * score(cherry, 1)!, 8);
    expect(score(mixed, 2)).toBeCloseTo(0.5 * score(cherry, 2)!, 8);
    const weighted = (odd: number) =>
      index
        .searchTerms(
          new Map([
            ['apple', 1],
            ['durian', odd],
          ]),
        )
        .map((h) => h.index);
    for (const odd of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(weighted(odd)).toEqual([1, 0]);
    // A contribution too small to add to a score still counts its document once.
    expect(
      index
        .searchTerms(
          new Map([
            ['banana', 5e-324],
            ['cherry', 1],
          ]),
        )
        .map((h) => h.index),
    ).toEqual([2, 1, 0]);
  });

  it('follows the k1 and b it is given', () => {
    // b = 0: no length normalisation, so only tf matters: 1.9 * 2 / (2 + 0.9) for document 1.
    const [top] = new Bm25Index(fruit, { b: 0 }).search('apple');
    expect(top!.score).toBeCloseTo((Math.log(1.6) * 1.9 * 2) / 2.9, 8);
    const [saturated] = new Bm25Index(fruit, { k1: 0 }).search('apple');
    expect(saturated!.score).toBeCloseTo(Math.log(1.6), 8);
  });

  it('indexes the title with the text', () => {
    const index = new Bm25Index([{ title: 'Refund policy', text: 'Opened items: 14 days.' }, { text: 'Shipping takes 3 days.' }]);
    expect(index.search('refund').map((h) => h.index)).toEqual([0]);
  });

  it('returns only documents sharing a term, at most k, ties to the earlier document', () => {
    const index = new Bm25Index([{ text: 'zebra' }, { text: 'cherry' }, { text: 'cherry' }, { text: 'cherry' }]);
    expect(index.search('cherry', 2).map((h) => h.index)).toEqual([1, 2]);
    expect(index.search('cherry', 0)).toEqual([]);
    expect(index.search('unknown words')).toEqual([]);
    expect(index.search('the of and')).toEqual([]);
    expect(new Bm25Index([]).search('cherry')).toEqual([]);
  });

  it('gives the same answer to the same query asked twice (no state left between searches)', () => {
    const index = new Bm25Index(fruit);
    const first = index.search('cherry banana');
    index.search('durian');
    expect(index.search('cherry banana')).toEqual(first);
  });

  it('tokenises Chinese into bigrams through terms()', () => {
    const index = new Bm25Index([{ text: '退款期限是十四天' }, { text: '运费怎么计算' }]);
    expect(index.search('退款').map((h) => h.index)).toEqual([0]);
  });

  it('finds the documents holding a lone Chinese character of a query, by its count, and idf over them', () => {
    const docs = [{ text: '退款期限是十四天' }, { text: '运费怎么计算' }, { text: '退货退款：退回商品' }, { text: '款式' }];
    const index = new Bm25Index(docs);
    expect(index.search('退').map((h) => h.index)).toEqual([2, 0]);
    expect(index.idf('退')).toBeCloseTo(Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5)), 12);
    // A run of one in a longer question counts too: "退 运费" finds both subjects.
    expect(
      index
        .search('退 运费')
        .map((h) => h.index)
        .sort(),
    ).toEqual([0, 1, 2]);
  });

  it('scores bigrams, and a lone character a document holds alone, as an index without characters does', () => {
    const docs = [{ text: '退款期限是十四天' }, { text: '运费怎么计算，退' }, { text: '退货退款：退回商品' }, { text: '款式' }];
    const index = new Bm25Index(docs);
    // Another tokenizer than the default indexes no characters: its bigrams, lengths and scores are as before.
    const bigramsOnly = new Bm25Index(docs, { tokenize: (text) => terms(text) });
    for (const q of ['退款', '退款期限', '款式 运费']) expect(index.search(q)).toEqual(bigramsOnly.search(q));
    expect(bigramsOnly.search('退').map((h) => h.index)).toEqual([1]);
  });

  it('ranks exactly as scoring every document and sorting would', () => {
    const vocabulary = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma'];
    const text = fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 30 }), text, fc.integer({ min: 1, max: 10 }), (texts, query, k) => {
        const docs = texts.map((t) => ({ text: t }));
        const index = new Bm25Index(docs);
        const avg = docs.reduce((s, d) => s + terms(d.text).length, 0) / docs.length;
        const brute = docs
          .map((d, i) => {
            const tokens = terms(d.text);
            let score = 0;
            for (const q of terms(query)) {
              const tf = tokens.filter((t) => t === q).length;
              if (tf) score += (index.idf(q) * tf * 1.9) / (tf + 0.9 * (0.6 + (0.4 * tokens.length) / avg));
            }
            return { index: i, score: roundScore(score) };
          })
          .filter((h) => h.score > 0)
          .sort((a, b) => b.score - a.score || a.index - b.index)
          .slice(0, k);
        const hits = index.search(query, k);
        expect(hits.map((h) => h.index)).toEqual(brute.map((h) => h.index));
        for (const [i, h] of hits.entries()) expect(h.score).toBeCloseTo(brute[i]!.score, 9);
      }),
    );
  });
});
