/**
 * Why the collector guesses what failed in a review item's answer, as a code and its numbers:
 * mining stores it so, the admin API answers it (`guessWhyCode`) beside the English sentence it has
 * always given (`guessWhy`), and the console words it in the reader's language.
 */

import { fillPlaceholders } from '../placeholders.ts';

/** The chunk closest to the user's correction, holding this share (0 to 1) of its terms, was retrieved at `rank`. */
interface CorrectionRetrieved {
  code: 'correction_retrieved';
  share: number;
  rank: number;
}
/** No retrieved chunk holds the user's correction: the closest holds this share (0 to 1) of its terms. */
interface CorrectionNotRetrieved {
  code: 'correction_not_retrieved';
  share: number;
}
/** What the user did or said, or what users did, with no number to it. */
interface Said {
  code:
    | 'flagged_a_cited_source'
    | 'flagged_cited_sources'
    | 'flagged_this_source'
    | 'said_wrong_source'
    | 'said_not_answered'
    | 'said_looks_wrong'
    | 'said_incomplete'
    | 'no_reason'
    | 'named_document_retrieved'
    | 'engaged_on_good_answer';
}
/** A stored sentence no code was found for (none is known to exist): shown as it was written. */
interface Text {
  code: 'text';
  text: string;
}

export type GuessWhy = CorrectionRetrieved | CorrectionNotRetrieved | Said | Text;
export type GuessWhyCode = GuessWhy['code'];

/** The English sentence of each code, as the API's `guessWhy` has always given it; `{name}` is one of `guessWhyValues`. */
export const GUESS_WHY_EN: Record<GuessWhyCode, string> = {
  correction_retrieved: "the chunk closest to the user's correction ({share} of its terms) was retrieved at rank {rank}: the answer was in front of the model",
  correction_not_retrieved: "no retrieved chunk holds the user's correction (best overlap {share})",
  flagged_a_cited_source: 'the user flagged a cited source as wrong',
  flagged_cited_sources: 'the user flagged cited sources as wrong',
  flagged_this_source: 'the user flagged this source as wrong',
  said_wrong_source: 'the user said the source was wrong',
  said_not_answered: 'the user said the answer did not address the question',
  said_looks_wrong: 'the user said the answer looks wrong: a bad chunk or a bad reading of a good one',
  said_incomplete: 'the user said the answer was incomplete: part of what the question asks may not have been retrieved, and what was may still be right',
  no_reason: 'negative feedback without a reason or correction',
  named_document_retrieved: 'the document the user names was retrieved',
  engaged_on_good_answer: 'users engaged with this source on a well-scored answer',
  text: '{text}',
};

/** A guess's numbers as every language shows them: a share in per cent, a rank as it is. */
export function guessWhyValues(g: GuessWhy): Record<string, string> {
  switch (g.code) {
    case 'correction_retrieved':
      return { share: `${Math.round(g.share * 100)}%`, rank: String(g.rank) };
    case 'correction_not_retrieved':
      return { share: `${Math.round(g.share * 100)}%` };
    case 'text':
      return { text: g.text };
    default:
      return {};
  }
}

/** Why, in words: `template` is its code's sentence in the reader's language (English by default). */
export function guessWhyText(g: GuessWhy, template: string = GUESS_WHY_EN[g.code]): string {
  return fillPlaceholders(template, guessWhyValues(g));
}
