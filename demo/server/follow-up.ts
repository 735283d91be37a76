/**
 * What retrieval searches for a follow-up. "What about side effects?" names too little to find
 * anything alone: it means the earlier turn's subject. A question this short is searched with the
 * terms the turn before it was searched with, at a lower weight, so its own words still decide
 * between the earlier subject's chunks. A question that names enough is searched alone.
 */

/** A question with at most this many distinct terms (stop words aside) leans on the turn before it. */
export const FOLLOW_UP_MAX_TERMS = 3;
/** The weight of the earlier turn's terms beside the follow-up's own (each at its count). */
export const EARLIER_TURN_WEIGHT = 0.5;

/**
 * The weighted terms to search for `own` (the question's terms and counts), given the terms the
 * session's previous turn was searched with. Chained follow-ups fade: the turn before the previous
 * one comes at the weight squared.
 */
export function retrievalTerms(own: ReadonlyMap<string, number>, earlier?: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(own);
  if (!earlier || own.size > FOLLOW_UP_MAX_TERMS) return out;
  for (const [term, weight] of earlier) out.set(term, (out.get(term) ?? 0) + EARLIER_TURN_WEIGHT * weight);
  return out;
}
