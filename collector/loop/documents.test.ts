import { describe, expect, it } from 'vitest';
import {
  type CitedCounts,
  countsToJudge,
  DOC_ALPHA,
  type DocumentCounts,
  documentWindowAfter,
  EVIDENCE_TRACES,
  failedTests,
  firstListedDay,
  globMatches,
  judgeDocument,
  ownerOf,
  recentWindowAfter,
  worstAnswers,
} from './documents.ts';

const doc = (more: Partial<DocumentCounts>): DocumentCounts => ({
  docId: 'refunds.md',
  docVersion: 'v3',
  scored: 0,
  negative: 0,
  recent: 0,
  recentRequeried: 0,
  before: 0,
  beforeRequeried: 0,
  ...more,
});

describe('stale documents', () => {
  it('flags a negative rate significantly above the baseline, with the figures', () => {
    const v = judgeDocument(doc({ scored: 30, negative: 18 }), 0.2);
    expect(v.flagged).toBe(true);
    expect(v.reasons[0]).toContain('18 of 30 answers');
  });

  it('does not flag a high ratio on too few answers, nor a rate near the baseline', () => {
    expect(judgeDocument(doc({ scored: 4, negative: 4 }), 0.2).flagged).toBe(false);
    expect(judgeDocument(doc({ scored: 100, negative: 24 }), 0.2).flagged).toBe(false);
  });

  it('flags a rising re-query rate', () => {
    const v = judgeDocument(doc({ recent: 60, recentRequeried: 24, before: 200, beforeRequeried: 20 }), 0.2);
    expect(v.flagged).toBe(true);
    expect(v.reasons[0]).toContain('re-asked 40%');
    expect(judgeDocument(doc({ recent: 60, recentRequeried: 7, before: 200, beforeRequeried: 20 }), 0.2).flagged).toBe(false);
  });

  it('names the tests failed from their p-values, an untested one never', () => {
    expect(failedTests(DOC_ALPHA / 2, DOC_ALPHA * 2)).toEqual(['badAnswers']);
    expect(failedTests(null, DOC_ALPHA / 2)).toEqual(['reasked']);
    expect(failedTests(0, 0)).toEqual(['badAnswers', 'reasked']);
    expect(failedTests(DOC_ALPHA, null)).toEqual([]);
  });

  it('routes a document to the first owner whose pattern matches', () => {
    const owners = [
      { pattern: 'policies/*', owner: 'legal@example.com' },
      { pattern: '*.md', owner: 'docs@example.com' },
    ];
    expect(ownerOf('policies/refunds.md', owners)).toBe('legal@example.com');
    expect(ownerOf('shipping.md', owners)).toBe('docs@example.com');
    expect(ownerOf('faq.html', owners)).toBeUndefined();
    expect(ownerOf('policiesXrefunds', [{ pattern: 'policies.*', owner: 'x' }])).toBeUndefined();
  });

  it('matches globs with * only, in time linear in the id whatever the pattern', () => {
    const cases: [pattern: string, text: string, matches: boolean][] = [
      ['refunds.md', 'refunds.md', true],
      ['refunds.md', 'refunds.mdx', false],
      ['*', '', true],
      ['a*', 'a', true],
      ['*a*', 'bab', true],
      ['a*a', 'a', false],
      ['a*b*c', 'abc', true],
      ['a*b*c', 'acb', false],
      ['*/v*/*.md', 'docs/v2/guide.md', true],
      ['*/v*/*.md', 'docs/guide.md', false],
      ['(x)+[y]?', '(x)+[y]?', true],
      ['**', 'anything', true],
    ];
    for (const [pattern, text, matches] of cases) expect([pattern, text, globMatches(pattern, text)]).toEqual([pattern, text, matches]);
    // As a regular expression this pattern backtracks exponentially on a long run of a's.
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*c', 'a'.repeat(10_000))).toBe(false);
    expect(globMatches('*a*a*a*a*a*a*a*a*a*a*c', `${'a'.repeat(10_000)}c`)).toBe(true);
  });
});

describe('what a document is judged on', () => {
  /** The answers that cited `versions` of the document, all scored, re-asked none; recent on its last day. */
  const cited = (versions: string[], lastDay: string, scored: number, negative: number): CitedCounts => ({
    ...doc({ scored, negative, recent: lastDay >= '2026-11-24' ? scored : 0, before: lastDay >= '2026-11-24' ? 0 : scored }),
    versions,
    lastDay,
  });
  const judged = (rows: CitedCounts[]) =>
    countsToJudge(rows).map((d) => [d.docVersion, d.scored, d.negative, d.recent, d.before, d.evidence.map((r) => r.versions.join('+'))]);

  it('judges one version once, as the document', () => {
    expect(judged([cited(['v1'], '2026-11-30', 20, 5)])).toEqual([['*', 20, 5, 20, 0, ['v1']]]);
  });

  it('judges versions cited on the last day each, and the document on their bad answers and on every version’s re-asks', () => {
    expect(judged([cited(['a'], '2026-11-30', 20, 5), cited(['b'], '2026-11-20', 30, 30), cited(['c'], '2026-11-30', 10, 1)])).toEqual([
      ['*', 30, 6, 30, 30, ['a', 'c']],
      ['a', 20, 5, 20, 0, ['a']],
      ['c', 10, 1, 10, 0, ['c']],
    ]);
  });

  it('judges the one version still cited once, as the document, its evidence its own', () => {
    expect(judged([cited(['v1'], '2026-11-20', 40, 40), cited(['v2'], '2026-11-30', 15, 0)])).toEqual([['*', 15, 0, 15, 40, ['v2']]]);
  });

  it('counts an answer citing several versions once for the document and once for each of its versions', () => {
    // During a re-index: 12 answers cited v1 and v2 together, 4 v2 alone, and earlier 6 cited v0 and v1.
    expect(judged([cited(['v1', 'v2'], '2026-11-30', 12, 12), cited(['v2'], '2026-11-30', 4, 0), cited(['v0', 'v1'], '2026-11-20', 6, 6)])).toEqual([
      ['*', 22, 18, 16, 6, ['v1+v2', 'v2', 'v0+v1']],
      ['v1', 18, 18, 12, 6, ['v1+v2', 'v0+v1']],
      ['v2', 16, 12, 16, 0, ['v1+v2', 'v2']],
    ]);
  });

  it('holds against the document an answer citing a current version with a replaced one, and not one citing replaced ones alone', () => {
    expect(judged([cited(['v1', 'v2'], '2026-11-28', 5, 5), cited(['v1'], '2026-11-27', 7, 7), cited(['v2'], '2026-11-30', 10, 0)])).toEqual([
      ['*', 15, 5, 22, 0, ['v1+v2', 'v2']],
    ]);
  });
});

describe("a flag's evidence from its days' lists", () => {
  it('takes the worst answers of all the lists, each once, ties in trace id order', () => {
    const day1 = [
      [-1, 'b'],
      [-1, 'd'],
      [-0.5, 'a'],
    ] as const;
    const day2 = [
      [-1, 'a'],
      [-0.9, 'c'],
      [-0.5, 'a'],
    ] as const;
    // 'a' is in both lists (another version's list on the same day, say): once, at its worst.
    expect(worstAnswers([day1, day2])).toEqual(['a', 'b', 'd', 'c']);
    expect(worstAnswers([])).toEqual([]);
  });

  it(`keeps ${EVIDENCE_TRACES} at most`, () => {
    const list = Array.from({ length: 25 }, (_, i) => [-1 + i / 100, `t${String(i).padStart(2, '0')}`] as const);
    expect(worstAnswers([list.slice(0, 12), list.slice(12)])).toEqual(list.slice(0, EVIDENCE_TRACES).map((e) => e[1]));
  });

  it('lists days from the first of the 35 whole days before the run that documents are judged over', () => {
    expect(firstListedDay(Date.parse('2026-12-01T00:00:30Z'))).toBe('2026-10-27');
    expect(documentWindowAfter(Date.parse('2026-12-01T00:00:30Z'))).toBe('2026-10-26');
    expect(recentWindowAfter(Date.parse('2026-12-01T00:00:30Z'))).toBe('2026-11-23');
  });

  it('tests the bad-answer rate from exactly 10 scored answers, and re-asks from exactly 20 answers in each window', () => {
    expect(judgeDocument(doc({ scored: 10, negative: 10 }), 0.05)).toMatchObject({ flagged: true, negativeP: expect.any(Number) });
    expect(judgeDocument(doc({ scored: 9, negative: 9 }), 0.05)).toMatchObject({ flagged: false, negativeP: null });
    const reasked = { recent: 20, recentRequeried: 10, before: 20, beforeRequeried: 0 };
    expect(judgeDocument(doc(reasked), 0.05)).toMatchObject({ flagged: true, requeryP: expect.any(Number) });
    expect(judgeDocument(doc({ ...reasked, before: 19 }), 0.05)).toMatchObject({ flagged: false, requeryP: null });
    expect(judgeDocument(doc({ ...reasked, recent: 19, recentRequeried: 9 }), 0.05)).toMatchObject({ flagged: false, requeryP: null });
  });
});
