import { describe, expect, it } from 'vitest';
import { cosine } from './embedder.ts';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('cosine', () => {
  it('is 1 for the same direction, whatever the lengths of the vectors', () => {
    expect(cosine(v(1, 2, 3), v(2, 4, 6))).toBeCloseTo(1, 6);
  });
  it('is 0 for orthogonal vectors and -1 for opposite ones', () => {
    expect(cosine(v(1, 0), v(0, 1))).toBe(0);
    expect(cosine(v(1, 1), v(-1, -1))).toBeCloseTo(-1, 6);
  });
  it('is the dot product for unit vectors', () => {
    expect(cosine(v(0.6, 0.8), v(0.8, 0.6))).toBeCloseTo(0.96, 6);
  });
  it('is 0 when a vector is all zeros', () => {
    expect(cosine(v(0, 0), v(1, 0))).toBe(0);
  });
  it('is 0, not NaN, when a vector holds NaN', () => {
    expect(cosine(v(Number.NaN, Number.NaN), v(1, 0))).toBe(0);
    expect(cosine(v(1, 0), v(Number.NaN, 1))).toBe(0);
  });
  it('throws on vectors of different lengths, which come from different models', () => {
    expect(() => cosine(v(1, 0), v(1, 0, 0))).toThrow(/different lengths/);
  });
});
