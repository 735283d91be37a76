import { describe, expect, it } from 'vitest';
import { diagnose, expectedValue, type MinedChunk, type MiningTrace, mineTrace, namedDocument } from './mining.ts';

const chunk = (rank: number, chunkId: string, text: string, sourceDocId = `${chunkId}.md`): MinedChunk => ({
  chunkId,
  sourceDocId,
  sourceDocVersion: null,
  rank,
  score: 1 - rank / 10,
  text,
});
const chunks = [
  chunk(1, 'shipping', 'Shipping to Canada takes 5 to 8 business days.'),
  chunk(2, 'credit', 'Store credit is issued for opened items and never expires.'),
  chunk(3, 'refund', 'Opened items can be refunded within 14 days of delivery.', 'refunds.md'),
];
const base: MiningTrace = { traceId: 't1', query: 'refund for opened items?', score: -1, chunks, flagged: [], engaged: [], corrections: [], reasons: [] };
const t = { badTraceScore: -0.3, goodTraceScore: 0.3 };

describe('mining', () => {
  it('mines the top chunks of a bad trace as hard negatives', () => {
    const out = mineTrace(base, t);
    expect(out.map((c) => [c.chunk.chunkId, c.label])).toEqual([
      ['shipping', 'negative'],
      ['credit', 'negative'],
    ]);
    expect(out[0]!.weight).toBeGreaterThan(out[1]!.weight);
    expect(out[0]!.evidence).toEqual([{ code: 'ranked_on_bad_answer', rank: 1, score: -1 }]);
  });

  it('mines only a clearly bad trace, below the bad score as the seed does: a lone bounce at -0.3 is not', () => {
    expect(mineTrace({ ...base, score: -0.3 }, t)).toEqual([]);
    expect(mineTrace({ ...base, score: -0.31 }, t).map((c) => c.label)).toEqual(['negative', 'negative']);
  });

  it('mines the flagged chunk first-hand, with a retrieval guess', () => {
    const out = mineTrace({ ...base, flagged: [{ chunkId: 'credit', confidence: 0.9 }] }, t);
    const flagged = out.find((c) => c.chunk.chunkId === 'credit')!;
    expect(flagged.evidence).toEqual([{ code: 'flagged_wrong_source', confidence: 0.9 }]);
    expect(flagged.guess).toBe('retrieval_failed');
    expect(flagged.guessWhy).toEqual({ code: 'flagged_this_source' });
  });

  it('guesses generation failed when a retrieved chunk holds the correction, and says where it ranked', () => {
    const trace = { ...base, corrections: [{ text: 'Opened items can be refunded within 14 days', confidence: 0.95 }] };
    expect(diagnose(trace)).toMatchObject({ guess: 'generation_failed' });
    expect(diagnose(trace).why).toEqual({ code: 'correction_retrieved', share: expect.any(Number), rank: 3 });
    const positive = mineTrace(trace, t).find((c) => c.label === 'positive')!;
    expect(positive.chunk.chunkId).toBe('refund');
  });

  it('guesses retrieval failed when no chunk holds the correction', () => {
    const d = diagnose({ ...base, corrections: [{ text: 'Warranty claims need the original invoice number', confidence: 0.95 }] });
    expect(d.guess).toBe('retrieval_failed');
    expect(d.why).toEqual({ code: 'correction_not_retrieved', share: expect.any(Number) });
  });

  it('reads "incomplete" as a question of recall, not as the retrieved chunks being wrong', () => {
    const d = diagnose({ ...base, reasons: ['incomplete'] });
    expect(d).toMatchObject({ guess: 'unclear' });
    expect(d.why).toEqual({ code: 'said_incomplete' });
    expect(diagnose({ ...base, reasons: ['incomplete', 'not_answered'] }).guess).toBe('retrieval_failed');
  });

  it('turns the document a correction names into a positive', () => {
    const out = mineTrace({ ...base, corrections: [{ text: 'see the refund policy', source: 'refunds.md', confidence: 0.95 }] }, t);
    expect(out.find((c) => c.chunk.chunkId === 'refund')).toMatchObject({ label: 'positive' });
  });

  it('takes the document a correction names by its own id before one whose id only holds it, and none for a name too short', () => {
    expect(namedDocument('policy.md', ['privacy-policy.md', 'policy.md'])).toBe('policy.md');
    expect(namedDocument('FAQ', ['billing-faq.md', 'faq.md'])).toBe('faq.md');
    expect(namedDocument('refunds', ['shipping.md', 'refunds.md'])).toBe('refunds.md');
    expect(namedDocument('md', ['a.md', 'b.md'])).toBeUndefined();
    const named = [chunk(1, 'privacy', 'Privacy policy.', 'privacy-policy.md'), chunk(2, 'policy', 'Returns policy.', 'policy.md')];
    const out = mineTrace({ ...base, chunks: named, corrections: [{ text: 'wrong', source: 'policy.md', confidence: 0.95 }] }, t);
    expect(out.map((c) => [c.chunk.chunkId, c.label])).toEqual([
      ['privacy', 'negative'],
      ['policy', 'positive'],
    ]);
  });

  it('takes the document a correction names by its title, as a person writes it: words for hyphens, no extension, no folder', () => {
    expect(namedDocument('Refund Policy', ['shipping.md', 'policies/refund-policy.md'])).toBe('policies/refund-policy.md');
    expect(namedDocument('the refund policy page', ['privacy-policy.md', 'refund_policy.html'])).toBe('refund_policy.html');
    expect(namedDocument('https://help.example.com/refund-policy', ['shipping.md', 'refund-policy.md'])).toBe('refund-policy.md');
    // Every word of its name: "the policy" names neither.
    expect(namedDocument('the policy', ['privacy-policy.md', 'refund-policy.md'])).toBeUndefined();
  });

  it('mines engaged chunks of good traces as positives and nothing from a lukewarm one', () => {
    const good = {
      ...base,
      score: 0.8,
      engaged: [
        { chunkId: 'refund', kind: 'copy' as const, confidence: 0.6 },
        { chunkId: 'refund', kind: 'click' as const, confidence: 0.4 },
      ],
    };
    const out = mineTrace(good, t);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ label: 'positive', guess: 'worked' });
    expect(out[0]!.evidence).toHaveLength(2);
    expect(mineTrace({ ...good, score: 0.1 }, t)).toEqual([]);
  });

  it('values reach with diminishing returns', () => {
    expect(expectedValue(0.5, 1)).toBe(0.5);
    expect(expectedValue(0.5, 10)).toBeGreaterThan(expectedValue(0.5, 2));
    expect(expectedValue(0.5, 100) / expectedValue(0.5, 10)).toBeLessThan(2);
  });

  it('mines a good trace from a score of exactly 0.3', () => {
    const engaged = [{ chunkId: 'refund', kind: 'click' as const, confidence: 0.4 }];
    expect(mineTrace({ ...base, score: 0.3, engaged }, t).map((c) => [c.chunk.chunkId, c.label])).toEqual([['refund', 'positive']]);
    expect(mineTrace({ ...base, score: 0.29, engaged }, t)).toEqual([]);
  });

  it('reads a chunk holding exactly half of a correction’s terms as holding it, and a quarter as not yet missing from retrieval', () => {
    const guess = (text: string) => diagnose({ ...base, corrections: [{ text, confidence: 0.95 }] });
    // Two of four terms in the shipping chunk.
    expect(guess('Canada shipping costs nothing')).toMatchObject({ guess: 'generation_failed', why: { code: 'correction_retrieved', share: 0.5, rank: 1 } });
    // One of four: neither held nor below a quarter, so the correction says nothing of what failed.
    expect(guess('Canada parcels cost nothing')).toMatchObject({ guess: 'unclear', why: { code: 'no_reason' } });
    expect(guess('Canada parcels cost nothing today')).toMatchObject({ guess: 'retrieval_failed', why: { code: 'correction_not_retrieved', share: 0.2 } });
  });

  it('mines a flagged top chunk once, as the flag’s hard negative, not again for its rank', () => {
    const out = mineTrace({ ...base, flagged: [{ chunkId: 'shipping', confidence: 0.9 }] }, t);
    expect(out.filter((c) => c.chunk.chunkId === 'shipping').map((c) => c.evidence)).toEqual([[{ code: 'flagged_wrong_source', confidence: 0.9 }]]);
  });

  it('weighs the engagement behind a positive at 1 at most, however many kinds add up', () => {
    const engaged = [
      { chunkId: 'refund', kind: 'copy' as const, confidence: 0.9 },
      { chunkId: 'refund', kind: 'dwell' as const, confidence: 0.9 },
    ];
    expect(mineTrace({ ...base, score: 0.8, engaged }, t)[0]!.weight).toBe(1);
  });
});
