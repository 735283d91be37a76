/**
 * Pairwise logistic regression (RankNet with a linear scorer): for each pair "a should rank above
 * b" it minimises log(1 + exp(-w·(x_a - x_b))), plus an L2 pull towards `prior` so that with
 * little data the model stays close to retrieval's order instead of fitting noise. Convex and
 * small (one weight per feature), so Newton's method converges in a handful of steps.
 */

export interface Pair {
  /** Feature difference, preferred minus other (standardised). */
  diff: number[];
  weight: number;
}

export interface PairwiseOptions {
  /** Strength of the pull towards `prior`. */
  l2?: number;
  iterations?: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Solves A x = b for a small dense symmetric positive-definite A (Gaussian elimination with pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    const pivot = m[c]![c]!;
    if (Math.abs(pivot) < 1e-12) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / pivot;
      if (f !== 0) for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => (Math.abs(row[i]!) < 1e-12 ? 0 : row[n]! / row[i]!));
}

export function fitPairwise(pairs: readonly Pair[], prior: readonly number[], options: PairwiseOptions = {}): number[] {
  const l2 = options.l2 ?? 1;
  const iterations = options.iterations ?? 25;
  const n = prior.length;
  const w = [...prior];
  for (let it = 0; it < iterations; it++) {
    const grad = w.map((wi, i) => l2 * (wi - prior[i]!));
    const hess = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? l2 : 0)));
    for (const { diff, weight } of pairs) {
      let z = 0;
      for (let i = 0; i < n; i++) z += w[i]! * diff[i]!;
      const s = sigmoid(-z);
      const h = weight * s * (1 - s);
      for (let i = 0; i < n; i++) {
        grad[i]! -= weight * s * diff[i]!;
        const hi = h * diff[i]!;
        if (hi === 0) continue;
        for (let j = i; j < n; j++) hess[i]![j]! += hi * diff[j]!;
      }
    }
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) hess[i]![j] = hess[j]![i]!;
    const step = solve(hess, grad);
    let size = 0;
    for (let i = 0; i < n; i++) {
      w[i]! -= step[i]!;
      size = Math.max(size, Math.abs(step[i]!));
    }
    if (size < 1e-6) break;
  }
  return w;
}
