import { describe, expect, it } from 'vitest';
import { random } from '../seed/traffic.ts';
import { type SparseRows, termVectors } from './lsa.ts';

/** A documents × terms matrix of rank `rank` with some zeros, as sparse rows. */
function lowRank(docs: number, terms: number, rank: number, seed: number): { x: SparseRows; dense: number[][] } {
  const next = random(seed);
  const a = Array.from({ length: docs }, () => Array.from({ length: rank }, () => next()));
  const b = Array.from({ length: rank }, () => Array.from({ length: terms }, () => (next() < 0.3 ? 0 : next())));
  const dense = a.map((row) => Array.from({ length: terms }, (_, t) => row.reduce((s, v, k) => s + v * b[k]![t]!, 0)));
  const rows = dense.map((row) => {
    const cols = Int32Array.from(row.flatMap((v, t) => (v === 0 ? [] : [t])));
    return { cols, vals: Float64Array.from(cols, (t) => row[t]!) };
  });
  return { x: { rows, columns: terms }, dense };
}

describe('termVectors', () => {
  it('gives term vectors whose inner products are the matrix Gram XᵀX when dim covers the rank', () => {
    const { x, dense } = lowRank(40, 30, 5, 3);
    const dim = 8;
    const w = termVectors(x, dim, 1);
    for (let s = 0; s < 30; s++) {
      for (let t = 0; t < 30; t++) {
        const gram = dense.reduce((sum, row) => sum + row[s]! * row[t]!, 0);
        let dot = 0;
        for (let k = 0; k < dim; k++) dot += w[s * dim + k]! * w[t * dim + k]!;
        expect(dot).toBeCloseTo(gram, 6);
      }
    }
  });

  it('finds the range itself when its basis is narrower than the matrix (dim + oversampling < terms and documents)', () => {
    const { x, dense } = lowRank(200, 300, 5, 7);
    const dim = 8;
    const w = termVectors(x, dim, 1);
    for (let s = 0; s < 300; s += 7) {
      for (let t = 0; t < 300; t += 11) {
        const gram = dense.reduce((sum, row) => sum + row[s]! * row[t]!, 0);
        let dot = 0;
        for (let k = 0; k < dim; k++) dot += w[s * dim + k]! * w[t * dim + k]!;
        expect(Math.abs(dot - gram)).toBeLessThan(1e-6 * (1 + Math.abs(gram)));
      }
    }
  });

  it('keeps the leading directions when dim is below the rank: what it drops is the smallest part', () => {
    const { x, dense } = lowRank(40, 30, 12, 5);
    const full = termVectors(x, 12, 1);
    const cut = termVectors(x, 4, 1);
    const energy = (w: Float64Array) => w.reduce((s, v) => s + v * v, 0);
    const total = dense.flat().reduce((s, v) => s + v * v, 0);
    expect(energy(full)).toBeCloseTo(total, 6);
    // The first 4 of 12 components carry most of the matrix, and no more than all 12.
    expect(energy(cut)).toBeGreaterThan(0.8 * total);
    expect(energy(cut)).toBeLessThan(total);
    for (let t = 0; t < 30; t++) for (let k = 0; k < 4; k++) expect(Math.abs(cut[t * 4 + k]!)).toBeCloseTo(Math.abs(full[t * 12 + k]!), 4);
  });

  it('is the same for the same seed', () => {
    const { x } = lowRank(20, 15, 6, 9);
    expect(termVectors(x, 4, 2)).toEqual(termVectors(x, 4, 2));
  });
});
