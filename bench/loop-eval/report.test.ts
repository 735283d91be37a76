import { describe, expect, it } from 'vitest';
import { gateWord, progressLine } from './report.ts';
import type { CycleRow } from './report-shape.ts';

const word = (gate: string) => gateWord({ gate, candidate: null } as CycleRow);

describe("the table's gate column", () => {
  it('says "too few" only when too few examples were the reason the night did not train', () => {
    expect(word('not trained: 12 confirmed examples; training needs at least 30')).toBe('too few');
    expect(word('not trained: one session (s-1) raised 60% of the batch; at most 50% may come from one source')).toBe('not trained');
    // Retraining in Node (--corpus-embeddings) after a week without a new confirmed example.
    expect(word('not trained: no confirmed example is new since the last model')).toBe('nothing new');
    expect(word('nothingNew')).toBe('nothing new');
    expect(word('notDue')).toBe('not due');
  });
});

describe("a week's progress line", () => {
  it("says the night counted the confirmed examples before the week's review, and the line after it", () => {
    const m = (ndcg10: number, queries = 300) => ({ ndcg10, queries }) as CycleRow['test'];
    const row = {
      cycle: 1,
      week: '2026-W02',
      traces: 900,
      eventsStored: 2000,
      trustedSignals: 1500,
      pushBacksMarked: 20,
      pushedBack: 25,
      mined: 300,
      reviewed: 90,
      reviewedRelevant: 50,
      confirmed: 144,
      gate: 'not trained: 0 confirmed examples; training needs at least 30',
      test: m(0.665),
      validation: m(0.689),
      asked: { queries: 400, bm25: 0.7, promoted: 0.7 },
      candidate: null,
      workerHeapMb: 20.4,
      seconds: 61,
    } as CycleRow;
    expect(progressLine(row)).toBe(
      'week 1 (2026-W02): 900 traces, 2000 events, 1500 trusted (20 of 25 answers pushed back on marked), 300 mined, 90 reviewed (50 relevant), ' +
        '144 confirmed after the review; the night before it: not trained: 0 confirmed examples; training needs at least 30; ' +
        "test nDCG@10 0.665, validation 0.689, 400 questions asked 0.700 (BM25 0.700); the Worker's heap up to 20 MB in the night (61 s)",
    );
  });

  it('says n/a for validation when the collection leaves no validation query, not a figure of 0', () => {
    const row = {
      cycle: 2,
      week: '2026-W03',
      gate: 'rejected',
      test: { ndcg10: 0.73, queries: 5 },
      validation: { ndcg10: 0, queries: 0 },
      asked: { queries: 8, bm25: 0.875, promoted: 0.875 },
      candidate: { version: 'v1', testNdcg10: 0.7, validationNdcg10: 0, askedNdcg10: 0.9 },
    } as CycleRow;
    expect(progressLine(row)).toContain('test nDCG@10 0.730, validation n/a, 8 questions asked');
    expect(progressLine(row)).toContain('candidate v1 test 0.700 validation n/a asked 0.900');
  });
});
