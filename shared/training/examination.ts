/**
 * Position bias: users click what is on top whether or not it is best. Under the position-based
 * click model (Craswell et al. 2008) a click needs examination, whose probability falls with rank,
 * so dividing each engagement by its rank's examination probability (inverse propensity weighting,
 * Joachims et al. 2017) estimates what an unbiased user would have done.
 *
 * The probabilities are estimated from engagement rates by rank, relative to rank 1, made
 * non-increasing. Rate by rank also carries relevance (better chunks sit higher), so the estimate
 * overstates the bias somewhat, which errs towards crediting lower ranks: the safe side for a
 * loop whose job is to find what retrieval under-ranks.
 */
import type { EngagementRow } from './data.ts';

/** No rank is assumed examined less often than this, so one lucky click cannot weigh 1,000. */
export const MIN_EXAMINATION = 0.05;
/** Impressions a rank needs before its own rate is trusted; beyond the last such rank the last estimate holds. */
const MIN_SHOWN = 30;

/** Examination probability per rank (index rank - 1), 1 at rank 1. */
export function estimateExamination(rows: readonly EngagementRow[], shownByRank?: readonly number[], maxRank = 20): number[] {
  const shown = new Array<number>(maxRank).fill(0);
  const engaged = new Array<number>(maxRank).fill(0);
  for (const r of rows) {
    if (r.rank < 1 || r.rank > maxRank) continue;
    if (!shownByRank) shown[r.rank - 1]! += r.shown;
    engaged[r.rank - 1]! += r.engaged;
  }
  for (const [k, n] of (shownByRank ?? []).entries()) if (k < maxRank) shown[k] = n;
  const top = shown[0]! >= MIN_SHOWN && engaged[0]! > 0 ? engaged[0]! / shown[0]! : 0;
  const out: number[] = [];
  let last = 1;
  for (let k = 0; k < maxRank; k++) {
    if (k > 0 && top > 0 && shown[k]! >= MIN_SHOWN) last = Math.min(last, Math.max(MIN_EXAMINATION, engaged[k]! / shown[k]! / top));
    out.push(last);
  }
  return out;
}

export const examinationAt = (examination: readonly number[], rank: number): number => examination[Math.min(rank, examination.length) - 1] ?? MIN_EXAMINATION;
