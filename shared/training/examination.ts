/**
 * Position bias: users click what is on top whether or not it is best. Under the position-based
 * click model (Craswell et al. 2008) a click needs examination, whose probability falls with rank,
 * so a chunk's engagements are set against its impressions each weighted by its rank's examination
 * probability (clicks over expected clicks; the same correction as inverse propensity weighting,
 * Joachims et al. 2017, with less variance): what an unbiased user would have done.
 *
 * Rate by rank also carries relevance (better chunks sit higher), so where reviewers judged enough
 * shown (query, chunk) pairs the rate is compared within each verdict: engagement at rank k
 * against what the same impressions would have drawn at rank 1, verdict by verdict. Otherwise the
 * probabilities come from engagement rates by rank relative to rank 1, which overstates the bias
 * and errs towards crediting lower ranks: the safe side for a loop whose job is to find what
 * retrieval under-ranks. Either way they are made non-increasing.
 */
import type { Confirmed, EngagementRow } from './data.ts';

/** No rank is assumed examined less often than this, so a deep impression never counts for nothing and one lucky click for a hundred. */
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

/** Engagements the judged impressions at a rank would have drawn at rank 1 before that rank's own estimate is trusted. */
const MIN_EXPECTED = 5;

/**
 * Examination per rank from judged (query, chunk) pairs: at each rank, engagement against what
 * the same impressions would have drawn at rank 1 given their verdict. Below the last rank with
 * enough judged impressions, each rank falls from the one above as `fallback` falls.
 */
export function examinationByVerdict(confirmed: readonly Confirmed[], queryEngagement: readonly EngagementRow[], fallback: readonly number[]): number[] {
  const verdicts = new Map(confirmed.map((c) => [`${c.queryKey}\u0000${c.chunkId}`, c.relevance]));
  const n = fallback.length;
  // [shown, engaged] per verdict and rank.
  const cells = [0, 1].map(() => Array.from({ length: n }, () => [0, 0] as [number, number]));
  for (const r of queryEngagement) {
    const v = verdicts.get(`${r.queryKey}\u0000${r.chunkId}`);
    if (v === undefined || r.rank < 1 || r.rank > n) continue;
    const cell = cells[v]![r.rank - 1]!;
    cell[0] += r.shown;
    cell[1] += r.engaged;
  }
  const topRate = cells.map((byRank) => (byRank[0]![0] >= MIN_SHOWN ? byRank[0]![1] / byRank[0]![0] : undefined));
  if (topRate.some((x) => x === undefined)) return [...fallback];
  const out: number[] = [1];
  for (let k = 1; k < n; k++) {
    let expected = 0;
    let engaged = 0;
    for (const v of [0, 1]) {
      expected += cells[v]![k]![0] * topRate[v]!;
      engaged += cells[v]![k]![1];
    }
    // Too few judged impressions here: the fall from the rank above as the fallback sees it.
    const own = expected >= MIN_EXPECTED ? engaged / expected : (out[k - 1]! * fallback[k]!) / fallback[k - 1]!;
    out.push(Math.max(MIN_EXAMINATION, Math.min(out[k - 1]!, own)));
  }
  return out;
}
