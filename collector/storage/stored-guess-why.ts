import { GUESS_WHY_EN, type GuessWhy, guessWhyText } from '../../shared/admin-api/guess-why.ts';

/**
 * The English sentences mining wrote before it stored codes, and the code each reads back as: kept
 * as they were written, so rewording a code's English (GUESS_WHY_EN) does not lose old rows.
 */
const SENTENCES: readonly [RegExp, (m: RegExpMatchArray) => GuessWhy][] = [
  [
    /^the chunk closest to the user's correction \((\d+)% of its terms\) was retrieved at rank (\d+): the answer was in front of the model$/,
    (m) => ({ code: 'correction_retrieved', share: Number(m[1]) / 100, rank: Number(m[2]) }),
  ],
  [/^no retrieved chunk holds the user's correction \(best overlap (\d+)%\)$/, (m) => ({ code: 'correction_not_retrieved', share: Number(m[1]) / 100 })],
];

/** The sentences with no number, each the code it was written from. */
const PLAIN: ReadonlyMap<string, GuessWhy> = new Map(
  (
    [
      ['the user flagged a cited source as wrong', 'flagged_a_cited_source'],
      ['the user flagged cited sources as wrong', 'flagged_cited_sources'],
      ['the user flagged this source as wrong', 'flagged_this_source'],
      ['the user said the source was wrong', 'said_wrong_source'],
      ['the user said the answer did not address the question', 'said_not_answered'],
      ['the user said the answer looks wrong: a bad chunk or a bad reading of a good one', 'said_looks_wrong'],
      [
        'the user said the answer was incomplete: part of what the question asks may not have been retrieved, and what was may still be right',
        'said_incomplete',
      ],
      ['negative feedback without a reason or correction', 'no_reason'],
      ['the document the user names was retrieved', 'named_document_retrieved'],
      ['users engaged with this source on a well-scored answer', 'engaged_on_good_answer'],
    ] as const
  ).map(([sentence, code]) => [sentence, { code }]),
);

/** A code stored as JSON, or undefined for anything else. */
function storedCode(stored: string): GuessWhy | undefined {
  if (!stored.startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(stored) as { code?: unknown };
    return typeof parsed.code === 'string' && Object.hasOwn(GUESS_WHY_EN, parsed.code) ? (parsed as GuessWhy) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `guess_why` column as a code: stored as its JSON, or the English sentence a row mined before
 * codes were stored holds, read back as the code it was worded from.
 */
export function asGuessWhy(stored: string): GuessWhy {
  const code = storedCode(stored) ?? PLAIN.get(stored);
  if (code) return code;
  for (const [sentence, read] of SENTENCES) {
    const m = stored.match(sentence);
    if (m) return read(m);
  }
  return { code: 'text', text: stored };
}

/** A `guess_why` column as the API answers it: the English sentence it has always given, and the code it is worded from. */
export function guessWhyFields(column: string): { guessWhy: string; guessWhyCode: GuessWhy } {
  const guessWhyCode = asGuessWhy(column);
  return { guessWhy: guessWhyText(guessWhyCode), guessWhyCode };
}
