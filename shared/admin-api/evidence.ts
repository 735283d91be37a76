/**
 * Why a trace backs a review item's label, as a code and its numbers: mining stores it so, the
 * admin API answers it (`evidenceCodes`) beside the English line it has always given (`evidence`),
 * and the console words it in the reader's language.
 */

import { fillPlaceholders } from '../placeholders.ts';

/** A chunk a user flagged as the wrong source, with the flag's confidence (0 to 1). */
interface FlaggedWrongSource {
  code: 'flagged_wrong_source';
  confidence: number;
}
/** The chunk holding this share (0 to 1) of the terms of the user's correction. */
interface HoldsCorrectionTerms {
  code: 'holds_correction_terms';
  share: number;
}
/** A chunk ranked `rank` on a bad answer of weighted score `score`. */
interface RankedOnBadAnswer {
  code: 'ranked_on_bad_answer';
  rank: number;
  score: number;
}
/** A chunk of the document (`document`, its id) the user's correction names as the source. */
interface CorrectionNamesSource {
  code: 'correction_names_source';
  document: string;
}
/** A chunk users engaged with on a good answer of weighted score `score`. */
interface Engaged {
  code: 'clicked' | 'read_with_focus' | 'copied';
  score: number;
}
/** A stored line no code was found for (none is known to exist): shown as it was written. */
interface Text {
  code: 'text';
  text: string;
}

export type Evidence = FlaggedWrongSource | HoldsCorrectionTerms | RankedOnBadAnswer | CorrectionNamesSource | Engaged | Text;
export type EvidenceCode = Evidence['code'];

/** The English line of each code, as the API's `evidence` has always given it; `{name}` is one of `evidenceValues`. */
export const EVIDENCE_EN: Record<EvidenceCode, string> = {
  flagged_wrong_source: 'flagged as the wrong source (confidence {confidence})',
  holds_correction_terms: "holds {share} of the terms of the user's correction",
  ranked_on_bad_answer: 'ranked {rank} on an answer scored {score}',
  correction_names_source: "the user's correction names {document} as the source",
  clicked: 'clicked on an answer scored {score}',
  read_with_focus: 'read with focus on an answer scored {score}',
  copied: 'copied on an answer scored {score}',
  text: '{text}',
};

/** A piece of evidence's numbers as every language shows them: scores to two places, a share in per cent. */
export function evidenceValues(e: Evidence): Record<string, string> {
  switch (e.code) {
    case 'flagged_wrong_source':
      return { confidence: e.confidence.toFixed(2) };
    case 'holds_correction_terms':
      return { share: `${Math.round(e.share * 100)}%` };
    case 'ranked_on_bad_answer':
      return { rank: String(e.rank), score: e.score.toFixed(2) };
    case 'correction_names_source':
      return { document: e.document };
    case 'text':
      return { text: e.text };
    default:
      return { score: e.score.toFixed(2) };
  }
}

/** A piece of evidence in words: `template` is its code's line in the reader's language (English by default). */
export function evidenceText(e: Evidence, template: string = EVIDENCE_EN[e.code]): string {
  return fillPlaceholders(template, evidenceValues(e));
}
