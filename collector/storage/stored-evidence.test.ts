import { describe, expect, it } from 'vitest';
import { type Evidence, evidenceText } from '../../shared/admin-api/evidence.ts';
import { asEvidence, distinctEvidence } from './stored-evidence.ts';

/** Every kind of line mining wrote before it stored codes. */
const LINES = [
  'flagged as the wrong source (confidence 0.85)',
  "holds 67% of the terms of the user's correction",
  'ranked 2 on an answer scored -0.62',
  "the user's correction names policies/refund policy.md as the source",
  'clicked on an answer scored 0.40',
  'read with focus on an answer scored 0.75',
  'copied on an answer scored 1.00',
];

describe('stored evidence', () => {
  it('reads each English line kept from before as the code it was worded from, worded back the same', () => {
    const codes = LINES.map(asEvidence);
    expect(codes.map((e) => e.code)).toEqual([
      'flagged_wrong_source',
      'holds_correction_terms',
      'ranked_on_bad_answer',
      'correction_names_source',
      'clicked',
      'read_with_focus',
      'copied',
    ]);
    expect(codes[2]).toEqual({ code: 'ranked_on_bad_answer', rank: 2, score: -0.62 });
    expect(codes.map((e) => evidenceText(e))).toEqual(LINES);
  });

  it('keeps a line it has no code for as its text', () => {
    expect(asEvidence('something else')).toEqual({ code: 'text', text: 'something else' });
    // A stored code none of the codes' own is shown as stored, rather than thrown on when worded.
    const unknown = { code: 'toString', score: 1 } as unknown as Evidence;
    expect(evidenceText(asEvidence(unknown))).toBe('{"code":"toString","score":1}');
  });

  it('says once what reads the same, whether kept as a line or as a code', () => {
    const code = { code: 'ranked_on_bad_answer', rank: 1, score: -0.6213 } as const;
    expect(distinctEvidence(['ranked 1 on an answer scored -0.62', code, { ...code, score: -0.6209 }, { ...code, rank: 2 }])).toEqual([
      { code: 'ranked_on_bad_answer', rank: 1, score: -0.62 },
      { ...code, rank: 2 },
    ]);
  });
});
