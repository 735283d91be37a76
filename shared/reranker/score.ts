/** Indices of `scores` best first; ties keep the earlier (retrieval's) order. */
export const orderByScore = (scores: ArrayLike<number>): number[] =>
  Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
