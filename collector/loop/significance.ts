/**
 * The tests behind "significantly above the baseline": a one-sided exact binomial test of a
 * proportion against a known rate, and a one-sided Fisher's exact test of one proportion against
 * another. Exact, because a document's counts are often small and its baseline rate low, where a
 * normal approximation calls 3 bad answers of 10 against a 5 % rate p = 0.0001 (exactly 0.012).
 */

/** A term of a tail this much smaller than the tail so far ends the sum: the rest cannot change a double. */
const NEGLIGIBLE = 1e-17;

/** ln Γ(x) for x ≥ 1, all `lnChoose` asks for (Lanczos, g = 7, nine coefficients: relative error about 1e-15). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const y = x - 1;
  let a = c[0]!;
  for (let i = 1; i < c.length; i++) a += c[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln of n choose k. */
const lnChoose = (n: number, k: number): number => lnGamma(n + 1) - lnGamma(k + 1) - lnGamma(n - k + 1);

/**
 * The sum of a distribution's terms from `first` on, given the first term's logarithm, how many
 * terms follow it and the ratio of each term to the one before (`ratio(k)`: the term after k to
 * k's); stops once the terms have become negligible. Summed from a term past the mode they only
 * shrink, so a sum starts on the side of the mode its tail lies on.
 */
function sum(lnFirst: number, first: number, following: number, ratio: (k: number) => number, step: 1 | -1): number {
  let term = Math.exp(lnFirst);
  let total = term;
  for (let i = 0, k = first; i < following; i++, k += step) {
    term *= ratio(k);
    total += term;
    if (term < NEGLIGIBLE * total) break;
  }
  return total;
}

/** P(X ≥ at), from the upper terms when `at` is past the mean, else as 1 − P(X < at) from the lower. */
function upperTail(
  at: number,
  mean: number,
  lowest: number,
  highest: number,
  lnTerm: (k: number) => number,
  up: (k: number) => number,
  down: (k: number) => number,
) {
  if (at <= lowest) return 1;
  if (at > highest) return 0;
  if (at >= mean) return Math.min(1, sum(lnTerm(at), at, highest - at, up, 1));
  return Math.max(0, 1 - sum(lnTerm(at - 1), at - 1, at - 1 - lowest, down, -1));
}

export interface TestResult {
  /** One-sided p-value: the chance of a rate this high if nothing were wrong. */
  p: number;
}

/** `hits` of `n` against a baseline rate `p0`: is the rate higher? P(X ≥ hits) for X ~ Binomial(n, p0). */
export function rateAboveBaseline(hits: number, n: number, p0: number): TestResult {
  if (n === 0 || p0 <= 0 || p0 >= 1) return { p: 1 };
  const odds = p0 / (1 - p0);
  const lnTerm = (k: number) => lnChoose(n, k) + k * Math.log(p0) + (n - k) * Math.log1p(-p0);
  return {
    p: upperTail(
      hits,
      n * p0,
      0,
      n,
      lnTerm,
      (k) => ((n - k) / (k + 1)) * odds,
      (k) => k / ((n - k + 1) * odds),
    ),
  };
}

/**
 * Is the rate `hits1 / n1` higher than `hits0 / n0`? P(X ≥ hits1) for the hypergeometric X of
 * hits falling in the first sample, all hits and both sizes as observed (Fisher's exact test).
 */
export function rateRising(hits1: number, n1: number, hits0: number, n0: number): TestResult {
  const all = n1 + n0;
  const hits = hits1 + hits0;
  if (n1 === 0 || n0 === 0 || hits === 0 || hits === all) return { p: 1 };
  const rest = all - hits;
  const lnTerm = (x: number) => lnChoose(hits, x) + lnChoose(rest, n1 - x) - lnChoose(all, n1);
  const up = (x: number) => ((hits - x) * (n1 - x)) / ((x + 1) * (rest - n1 + x + 1));
  const down = (x: number) => (x * (rest - n1 + x)) / ((hits - x + 1) * (n1 - x + 1));
  return { p: upperTail(hits1, (n1 * hits) / all, Math.max(0, n1 - rest), Math.min(hits, n1), lnTerm, up, down) };
}
