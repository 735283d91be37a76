import { describe, expect, it } from 'vitest';
import { type Evidence, featureRows, NO_COUNTS, queryView, type Remembered } from './features.ts';

const q = queryView('how long is the refund window');
const refunds = { chunkId: 'r1', sourceDocId: 'refunds.md', text: 'Refunds within 14 days.', score: 0.9 };
const other = { chunkId: 'r2', sourceDocId: 'refunds.md', text: 'Opened items get store credit.', score: 0.5 };

/** Evidence of nothing, but for what a test gives. */
const evidence = (more: Partial<Evidence> = {}): Evidence => ({
  chunk: () => NO_COUNTS,
  document: () => NO_COUNTS,
  engagement: () => NO_COUNTS,
  documentEngagement: () => NO_COUNTS,
  baseRate: 0.1,
  remembered: () => [],
  rememberedOfDocument: () => [],
  ...more,
});
const feature = (name: string, e: Evidence, candidates = [refunds, other]) => featureRows([name], q, candidates, e).map((r) => r[0]);

describe('reranker features', () => {
  it("remembers a judged question for its own chunk in full, for the document's other chunks at half, and each verdict apart", () => {
    const judged = (relevance: 0 | 1): Remembered => ({ terms: q.terms, relevance });
    const e = (relevance: 0 | 1) =>
      evidence({
        remembered: (id) => (id === 'r1' ? [judged(relevance)] : []),
        rememberedOfDocument: (doc) => (doc === 'refunds.md' ? [judged(relevance)] : []),
      });
    expect(feature('memory_relevant', e(1))).toEqual([1, 0.5]);
    expect(feature('memory_not_relevant', e(1))).toEqual([0, 0]);
    expect(feature('memory_relevant', e(0))).toEqual([0, 0]);
    expect(feature('memory_not_relevant', e(0))).toEqual([1, 0]);
  });

  it('reads judgements of a chunk as the smoothed log-odds ln((r + 1) / (n + 1))', () => {
    expect(feature('chunk_prior', evidence({ chunk: (id) => (id === 'r1' ? [3, 1] : NO_COUNTS) }))).toEqual([Math.log(2), 0]);
  });

  it("smooths a chunk's engagement by 20 examined impressions towards the document's other chunks, not its own", () => {
    // The document's engagement is the chunk's alone: its prior is the project's rate, 0.1.
    const e = evidence({ engagement: (id) => (id === 'r1' ? [5, 10] : NO_COUNTS), documentEngagement: () => [5, 10] });
    const [r1] = feature('engagement', e, [refunds]);
    expect(r1).toBeCloseTo(Math.log((5 + 20 * 0.1) / (10 + 20) / 0.1), 12);
  });
});
