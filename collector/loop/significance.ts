/**
 * The tests behind "significantly above the baseline": a one-sided score test of a proportion
 * against a known rate, and of one proportion against another. Normal approximations, so each
 * comes with a minimum count below which nothing is flagged.
 */

/** Upper-tail probability of the standard normal (Abramowitz-Stegun 26.2.17, error < 7.5e-8). */
export function normalUpperTail(z: number): number {
  if (z < 0) return 1 - normalUpperTail(-z);
  const t = 1 / (1 + 0.2316419 * z);
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI)) * poly;
}

export interface TestResult {
  /** The test statistic. */
  z: number;
  /** One-sided p-value: the chance of a rate this high if nothing were wrong. */
  p: number;
}

/** `hits` of `n` against a baseline rate `p0`: is the rate higher? */
export function rateAboveBaseline(hits: number, n: number, p0: number): TestResult {
  if (n === 0 || p0 <= 0 || p0 >= 1) return { z: 0, p: 1 };
  const z = (hits / n - p0) / Math.sqrt((p0 * (1 - p0)) / n);
  return { z, p: normalUpperTail(z) };
}

/** Is the rate `hits1 / n1` higher than `hits0 / n0`? (pooled two-proportion test) */
export function rateRising(hits1: number, n1: number, hits0: number, n0: number): TestResult {
  if (n1 === 0 || n0 === 0) return { z: 0, p: 1 };
  const pooled = (hits1 + hits0) / (n1 + n0);
  if (pooled <= 0 || pooled >= 1) return { z: 0, p: 1 };
  const z = (hits1 / n1 - hits0 / n0) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n0));
  return { z, p: normalUpperTail(z) };
}
