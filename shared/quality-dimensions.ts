/** What a reason for a thumbs-down says of the answer's quality, for the trace view's diagnosis. */
import type { AttributionReason } from './schema/reasons.ts';

/** The quality dimensions a failed answer is told apart by (seed 002, 2.2), each pointing at a stage to check. */
export type QualityDimension = 'relevance' | 'completeness' | 'faithfulness';

/**
 * The dimension each reason says failed: an answer that did not address the question, or cited the
 * wrong source, failed relevance (rewriting, retrieval, reranking); one that left part out,
 * completeness (recall, retrieval's scope); one that looks wrong, faithfulness (the generation, or
 * sources that disagree). "Other" says none.
 */
export const REASON_DIMENSIONS: Readonly<Record<AttributionReason, QualityDimension | null>> = {
  not_answered: 'relevance',
  wrong_source: 'relevance',
  incomplete: 'completeness',
  looks_wrong: 'faithfulness',
  other: null,
};
