import { describe, expect, it } from 'vitest';
import { cosine, float32Vector } from './embedder.ts';

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

describe('float32Vector', () => {
  it('takes a Float32Array as it is, and makes one of a plain array or another typed array, sized four bytes a dimension', () => {
    const given = v(0.6, 0.8);
    expect(float32Vector(given, 'vector 0')).toBe(given);
    for (const list of [[0.6, 0.8], Float64Array.from([0.6, 0.8])]) {
      const made = float32Vector(list, 'vector 0');
      expect(made).toBeInstanceOf(Float32Array);
      expect([...made]).toEqual([...given]);
      expect(made.byteLength).toBe(8);
    }
  });
  it('throws, naming the vector, on what is not a list', () => {
    expect(() => float32Vector(undefined, "embedder e's vector 2")).toThrow("embedder e's vector 2 is not a list of numbers but undefined");
    expect(() => float32Vector(null, 'vector 0')).toThrow('vector 0 is not a list of numbers but null');
    expect(() => float32Vector(new DataView(new ArrayBuffer(8)), 'vector 0')).toThrow('vector 0 is not a list of numbers but object');
  });
});
