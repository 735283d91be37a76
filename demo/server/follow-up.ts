/**
 * What retrieval searches for a follow-up. "What about side effects?" names too little to find
 * anything alone: it means the earlier turn's subject. A question this short is searched with the
 * terms the turn before it was searched with, at a lower weight, so its own words still decide
 * between the earlier subject's chunks. A question that names enough is searched alone. The trace
 * logs what was searched as its rewritten query, in Lucene's boost notation.
 */
import { POINTING_BACK } from '../../shared/terms.ts';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';

/** Words pointing back that ask for more than the turn before gave ("What else?", "Anything more?"): its sentences are not quoted again. */
export const ASKING_FOR_MORE: ReadonlySet<string> = new Set(['also', 'else', 'instead', 'more', 'other', 'too']);

/** A question with at most this many distinct terms (stop words and words pointing back aside) leans on the turn before it. */
export const FOLLOW_UP_MAX_TERMS = 3;
/** The weight of the earlier turn's terms beside the follow-up's own (each at its count). */
export const EARLIER_TURN_WEIGHT = 0.5;
/** An earlier term fading below this weight is dropped: a chain of follow-ups looks three turns back at most. */
export const EARLIER_TERM_FLOOR = 0.1;

/**
 * Terms a turn keeps for the follow-ups after it. A question pasted whole (a paragraph, a log) would
 * otherwise keep every word of it, in every kept turn of every session: 1,000 sessions of such
 * questions took 450 MB. Its heaviest terms already say what a follow-up leans on.
 */
export const EARLIER_TURN_MAX_TERMS = 64;

/** A question's own terms (and counts) without the words pointing back. */
const subject = (own: ReadonlyMap<string, number>) => new Map([...own].filter(([term]) => !POINTING_BACK.has(term)));

/** Whether a question with these terms (and counts) names too little to be searched alone. */
export const leansOnEarlierTurn = (own: ReadonlyMap<string, number>): boolean => subject(own).size <= FOLLOW_UP_MAX_TERMS;

/**
 * The weighted terms to search a follow-up with: its own terms without the words pointing back,
 * and those the previous turn was searched with at a lower weight. Chained follow-ups fade: the
 * turn before the previous one comes at the weight squared, until the floor drops it.
 */
export function withEarlierTurn(own: ReadonlyMap<string, number>, earlier: ReadonlyMap<string, number>): Map<string, number> {
  const out = subject(own);
  for (const [term, weight] of earlier) {
    const faded = EARLIER_TURN_WEIGHT * weight;
    if (faded >= EARLIER_TERM_FLOOR || out.has(term)) out.set(term, (out.get(term) ?? 0) + faded);
  }
  return out;
}

/**
 * Weighted terms as a query in Lucene's boost notation ("side effect aspirin^0.5"), heaviest
 * first; a term that would take it past the trace's limit is left out.
 */
export function boostedQuery(weighted: ReadonlyMap<string, number>): string {
  let out = '';
  for (const [term, weight] of [...weighted].sort((a, b) => b[1] - a[1])) {
    const part = weight === 1 ? term : `${term}^${Math.round(weight * 1000) / 1000}`;
    const next = out ? `${out} ${part}` : part;
    if (next.length <= MAX_QUERY_CHARS) out = next;
  }
  return out;
}

/**
 * The terms a turn keeps for its follow-ups: all of them, or for a longer question the
 * `EARLIER_TURN_MAX_TERMS` that weigh most in a search (weight times `idf`), in their order.
 */
export function keptForFollowUps(weighted: ReadonlyMap<string, number>, idf: (term: string) => number): ReadonlyMap<string, number> {
  if (weighted.size <= EARLIER_TURN_MAX_TERMS) return weighted;
  const heaviest = new Set(
    [...weighted]
      .sort(([a, wa], [b, wb]) => wb * idf(b) - wa * idf(a))
      .slice(0, EARLIER_TURN_MAX_TERMS)
      .map(([term]) => term),
  );
  return new Map([...weighted].filter(([term]) => heaviest.has(term)));
}
