import { describe, expect, it } from 'vitest';
import { rateAboveBaseline, rateRising } from './significance.ts';

/** The exact binomial tail P(X ≥ k), summed term by term from the definition. */
function binomialTail(k: number, n: number, p: number): number {
  let sum = 0;
  for (let x = k; x <= n; x++) {
    let choose = 1;
    for (let i = 1; i <= x; i++) choose = (choose * (n - x + i)) / i;
    sum += choose * p ** x * (1 - p) ** (n - x);
  }
  return sum;
}

describe('significance tests', () => {
  it('finds 12 of 20 against a 20% baseline significant and 5 of 20 not', () => {
    expect(rateAboveBaseline(12, 20, 0.2).p).toBeLessThan(0.001);
    expect(rateAboveBaseline(5, 20, 0.2).p).toBeGreaterThan(0.2);
  });

  it('gives the exact binomial tail, which a few bad answers against a low baseline do not pass at 0.01', () => {
    // A normal approximation gave 1.4e-4 and 2.4e-5: both would have been flagged.
    expect(rateAboveBaseline(3, 10, 0.05).p).toBeCloseTo(0.0115, 5);
    expect(rateAboveBaseline(2, 10, 0.02).p).toBeCloseTo(0.01618, 5);
    for (const [k, n, p] of [
      [1, 1, 0.3],
      [7, 40, 0.1],
      [30, 200, 0.1],
      [0, 5, 0.5],
      [5, 5, 0.5],
    ] as const)
      expect(rateAboveBaseline(k, n, p).p).toBeCloseTo(binomialTail(k, n, p), 12);
    // Large counts, far in the tail: no overflow, no NaN.
    const far = rateAboveBaseline(900, 10_000, 0.05).p;
    expect(far).toBeGreaterThan(0);
    expect(far).toBeLessThan(1e-30);
    expect(rateAboveBaseline(500, 10_000, 0.05).p).toBeGreaterThan(0.4);
    // Below the mean, from the lower tail: as exact.
    for (const [k, n, p] of [
      [1, 30, 0.2],
      [4, 40, 0.3],
    ] as const)
      expect(rateAboveBaseline(k, n, p).p).toBeCloseTo(binomialTail(k, n, p), 12);
    expect(rateAboveBaseline(1, 100_000, 0.5).p).toBe(1);
    expect(rateAboveBaseline(0, 0, 0.05)).toEqual({ p: 1 });
    expect(rateAboveBaseline(3, 10, 0)).toEqual({ p: 1 });
  });

  it("tells a rising rate from noise with Fisher's exact test", () => {
    expect(rateRising(30, 100, 10, 100).p).toBeLessThan(0.001);
    expect(rateRising(12, 100, 10, 100).p).toBeGreaterThan(0.3);
    // 4 of 20 against 0 of 28: exactly C(20,4) / C(48,4) = 0.0249 (a pooled normal test gave 0.007).
    expect(rateRising(4, 20, 0, 28).p).toBeCloseTo(4845 / 194_580, 10);
    // Fewer hits in the first sample than expected: nowhere near significant.
    expect(rateRising(1, 20, 10, 20).p).toBeGreaterThan(0.99);
    // Either side of the mean, the tail from its definition.
    for (const [h1, n1, h0, n0] of [
      [3, 25, 9, 30],
      [9, 30, 3, 25],
      [6, 22, 5, 20],
    ] as const) {
      const hits = h1 + h0;
      const all = n1 + n0;
      const choose = (n: number, k: number) => Array.from({ length: k }, (_, i) => (n - k + 1 + i) / (1 + i)).reduce((a, b) => a * b, 1);
      let exact = 0;
      for (let x = h1; x <= Math.min(hits, n1); x++) exact += (choose(hits, x) * choose(all - hits, n1 - x)) / choose(all, n1);
      expect(rateRising(h1, n1, h0, n0).p).toBeCloseTo(exact, 12);
    }
    expect(rateRising(0, 0, 3, 10)).toEqual({ p: 1 });
    expect(rateRising(0, 20, 0, 28)).toEqual({ p: 1 });
    expect(rateRising(20, 20, 28, 28)).toEqual({ p: 1 });
  });
});
