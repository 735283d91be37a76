import { describe, expect, it } from 'vitest';
import { GUESS_WHY_EN, type GuessWhy, guessWhyText } from '../../shared/admin-api/guess-why.ts';
import { asGuessWhy, guessWhyFields } from './stored-guess-why.ts';

/** Every kind of sentence mining wrote before it stored codes. */
const SENTENCES = [
  "the chunk closest to the user's correction (67% of its terms) was retrieved at rank 3: the answer was in front of the model",
  "no retrieved chunk holds the user's correction (best overlap 12%)",
  'the user flagged a cited source as wrong',
  'the user flagged cited sources as wrong',
  'the user flagged this source as wrong',
  'the user said the source was wrong',
  'the user said the answer did not address the question',
  'the user said the answer looks wrong: a bad chunk or a bad reading of a good one',
  'the user said the answer was incomplete: part of what the question asks may not have been retrieved, and what was may still be right',
  'negative feedback without a reason or correction',
  'the document the user names was retrieved',
  'users engaged with this source on a well-scored answer',
];

describe('stored guess why', () => {
  it('reads each English sentence kept from before as the code it was worded from, worded back the same', () => {
    const codes = SENTENCES.map(asGuessWhy);
    // Every code but `text` has a sentence here.
    expect(new Set(codes.map((c) => c.code))).toEqual(new Set(Object.keys(GUESS_WHY_EN).filter((c) => c !== 'text')));
    expect(codes[0]).toEqual({ code: 'correction_retrieved', share: 0.67, rank: 3 });
    expect(codes[1]).toEqual({ code: 'correction_not_retrieved', share: 0.12 });
    expect(codes.map((c) => guessWhyText(c))).toEqual(SENTENCES);
  });

  it('reads a code as stored, its English sentence worded from it', () => {
    const code: GuessWhy = { code: 'correction_retrieved', share: 0.6666, rank: 2 };
    expect(guessWhyFields(JSON.stringify(code))).toEqual({
      guessWhy: "the chunk closest to the user's correction (67% of its terms) was retrieved at rank 2: the answer was in front of the model",
      guessWhyCode: code,
    });
  });

  it('keeps a sentence it has no code for as its text', () => {
    for (const stored of ['something else', '{not json', '{"code":"no_such_code"}', '{"code":"toString"}', ''])
      expect(guessWhyFields(stored)).toEqual({ guessWhy: stored, guessWhyCode: { code: 'text', text: stored } });
  });
});
