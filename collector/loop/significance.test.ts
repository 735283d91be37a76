import { describe, expect, it } from 'vitest';
import { normalUpperTail, rateAboveBaseline, rateRising } from './significance.ts';

describe('significance tests', () => {
  it('matches the normal table', () => {
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 6);
    expect(normalUpperTail(1.6449)).toBeCloseTo(0.05, 4);
    expect(normalUpperTail(2.3263)).toBeCloseTo(0.01, 4);
    expect(normalUpperTail(-1.6449)).toBeCloseTo(0.95, 4);
  });

  it('finds 12 of 20 against a 20% baseline significant and 5 of 20 not', () => {
    expect(rateAboveBaseline(12, 20, 0.2).p).toBeLessThan(0.001);
    expect(rateAboveBaseline(5, 20, 0.2).p).toBeGreaterThan(0.2);
  });

  it('tells a rising rate from noise', () => {
    expect(rateRising(30, 100, 10, 100).p).toBeLessThan(0.001);
    expect(rateRising(12, 100, 10, 100).p).toBeGreaterThan(0.3);
    expect(rateRising(0, 0, 3, 10)).toEqual({ z: 0, p: 1 });
  });
});
