import { describe, expect, it } from 'vitest';
import { querySimilarity } from './similarity.ts';
import { REPHRASE_SIMILARITY } from './thresholds.ts';

const rephrases: [string, string][] = [
  ['What is the refund window for opened items?', 'refund window for opened items'],
  ['how long do I have to return an opened item', 'How long can I return opened items?'],
  ['Does vitamin D reduce the risk of fractures?', 'does vitamin d lower fracture risk'],
  ['退款条件是什么', '退款的条件是什么？'],
  ['这个政策对临时人员适用吗', '临时人员适用这个政策吗'],
];
const different: [string, string][] = [
  ['What is the refund window for opened items?', 'Which carriers do you ship with?'],
  ['Does vitamin D reduce the risk of fractures?', 'Is aspirin linked to stomach bleeding?'],
  ['退款条件是什么', '运费怎么计算'],
  ['reset my password', 'cancel my subscription'],
];

describe('querySimilarity', () => {
  it('is 1 for the same query, whatever the case and punctuation', () => {
    expect(querySimilarity('Refund window?', 'refund   WINDOW')).toBe(1);
  });
  it('is symmetric and within [0, 1]', () => {
    for (const [a, b] of [...rephrases, ...different]) {
      const s = querySimilarity(a, b);
      expect(s).toBe(querySimilarity(b, a));
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });
  it.each(rephrases)('counts as a rephrase: "%s" / "%s"', (a, b) => expect(querySimilarity(a, b)).toBeGreaterThanOrEqual(REPHRASE_SIMILARITY));
  it.each(different)('does not count as a rephrase: "%s" / "%s"', (a, b) => expect(querySimilarity(a, b)).toBeLessThan(REPHRASE_SIMILARITY));
  it('reads combining marks as part of the word, and "İ" as "i"', () => {
    // Two Hindi words that differ only in their vowel signs ("fort", "black") are not one query.
    expect(querySimilarity('किला', 'काला')).toBeLessThan(REPHRASE_SIMILARITY);
    expect(querySimilarity('İstanbul flights', 'istanbul flights')).toBe(1);
  });
  it('handles empty text', () => {
    expect(querySimilarity('', '')).toBe(1);
    expect(querySimilarity('a', 'hello')).toBe(0);
  });
});
