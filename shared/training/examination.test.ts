import { describe, expect, it } from 'vitest';
import type { Confirmed, EngagementRow } from './data.ts';
import { estimateExamination, examinationAt, examinationByVerdict } from './examination.ts';

const row = (rank: number, shown: number, engaged: number, more: Partial<EngagementRow> = {}): EngagementRow => ({
  chunkId: `c${rank}`,
  rank,
  shown,
  engaged,
  ...more,
});

describe('examination by rank', () => {
  it('never rises with rank: a rank drawing more than the one above it is examined as often, not more', () => {
    expect(estimateExamination([row(1, 1000, 400), row(2, 1000, 100), row(3, 1000, 200)], undefined, 3)).toEqual([1, 0.25, 0.25]);
  });

  it('counts the last rank asked for', () => {
    expect(estimateExamination([row(1, 1000, 400), row(2, 1000, 200), row(3, 1000, 100)], undefined, 3)).toEqual([1, 0.5, 0.25]);
  });

  it('trusts a rank’s own rate from 30 impressions, and holds the rank above below that', () => {
    expect(estimateExamination([row(1, 30, 15), row(2, 30, 3)], undefined, 2)).toEqual([1, 0.2]);
    expect(estimateExamination([row(1, 30, 15), row(2, 29, 3)], undefined, 2)).toEqual([1, 1]);
    expect(estimateExamination([row(1, 29, 15), row(2, 30, 3)], undefined, 2)).toEqual([1, 1]);
  });

  it('holds the last estimate for ranks beyond the estimates', () => {
    expect(examinationAt([1, 0.5, 0.25], 7)).toBe(0.25);
    expect(examinationAt([1, 0.5, 0.25], 2)).toBe(0.5);
  });
});

describe('examination within verdicts', () => {
  const verdict = (chunkId: string, relevance: 0 | 1): Confirmed => ({ queryKey: 'q', query: 'q', chunkId, sourceDocId: chunkId, relevance });
  // At rank 1 a relevant chunk draws 0.5 a look, another 0.1.
  const top = [row(1, 40, 20, { chunkId: 'r1', queryKey: 'q' }), row(1, 100, 10, { chunkId: 'n1', queryKey: 'q' })];
  const confirmed = [verdict('r1', 1), verdict('n1', 0), verdict('r2', 1), verdict('r3', 1)];

  it('trusts a rank from 5 engagements expected of its judged impressions at rank 1', () => {
    // Ten relevant impressions at rank 2 would have drawn 5 at rank 1; they drew 2.
    const rows = [...top, row(2, 10, 2, { chunkId: 'r2', queryKey: 'q' })];
    expect(examinationByVerdict(confirmed, rows, [1, 0.8])).toEqual([1, 0.4]);
  });

  it('never rises with rank, whatever a lower rank drew', () => {
    const rows = [...top, row(2, 20, 4, { chunkId: 'r2', queryKey: 'q' }), row(3, 20, 8, { chunkId: 'r3', queryKey: 'q' })];
    expect(examinationByVerdict(confirmed, rows, [1, 0.8, 0.6])).toEqual([1, 0.4, 0.4]);
  });
});
