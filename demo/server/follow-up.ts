/**
 * What retrieval searches for a follow-up. "What about side effects?" names too little to find
 * anything alone: it means the earlier turn's subject. A question this short is searched with the
 * terms the turn before it was searched with, at a lower weight, so its own words still decide
 * between the earlier subject's chunks. A question that names enough is searched alone. The trace
 * logs what was searched as its rewritten query, in Lucene's boost notation.
 */
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';

/** A question with at most this many distinct terms (stop words aside) leans on the turn before it. */
export const FOLLOW_UP_MAX_TERMS = 3;
/** The weight of the earlier turn's terms beside the follow-up's own (each at its count). */
export const EARLIER_TURN_WEIGHT = 0.5;
/** Words that point back in a follow-up ("what about…", "anything else?") and name no subject: not searched for in one. */
export const POINTING_BACK = new Set(['about', 'also', 'again', 'else', 'instead', 'more', 'other', 'too']);

/**
 * The weighted terms to search for a follow-up whose own terms (and counts) are `own`, given the
 * terms the session's previous turn was searched with; undefined when the question is searched
 * alone. Words pointing back count neither as the follow-up's terms nor in its search. Chained follow-ups fade: the turn before the previous one comes at the weight squared.
 */
export function followUpTerms(own: ReadonlyMap<string, number>, earlier?: ReadonlyMap<string, number>): Map<string, number> | undefined {
  if (!earlier?.size) return undefined;
  const out = new Map([...own].filter(([term]) => !POINTING_BACK.has(term)));
  if (out.size > FOLLOW_UP_MAX_TERMS) return undefined;
  for (const [term, weight] of earlier) out.set(term, (out.get(term) ?? 0) + EARLIER_TURN_WEIGHT * weight);
  return out;
}

/**
 * Weighted terms as a query in Lucene's boost notation ("side effect aspirin^0.5"), heaviest
 * first; terms that would take it past the trace's limit are left out.
 */
export function boostedQuery(weighted: ReadonlyMap<string, number>): string {
  let out = '';
  for (const [term, weight] of [...weighted].sort((a, b) => b[1] - a[1])) {
    const part = weight === 1 ? term : `${term}^${Math.round(weight * 1000) / 1000}`;
    const next = out ? `${out} ${part}` : part;
    if (next.length > MAX_QUERY_CHARS) break;
    out = next;
  }
  return out;
}
