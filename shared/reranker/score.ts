/** A linear scorer over standardised features: the whole of the model at ranking time. */
export function linearScores(rows: readonly number[][], weights: readonly number[], mean: readonly number[], scale: readonly number[]): number[] {
  return rows.map((row) => {
    let s = 0;
    for (let f = 0; f < weights.length; f++) s += (weights[f]! * (row[f]! - mean[f]!)) / scale[f]!;
    return s;
  });
}

/** Indices of `scores` best first; ties keep the earlier (retrieval's) order. */
export const orderByScore = (scores: readonly number[]): number[] => scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
