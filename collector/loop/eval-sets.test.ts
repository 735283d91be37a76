import { describe, expect, it } from 'vitest';
import { HELD_OUT_SHARE, isDisputed, isHeldOut, isoWeek } from './eval-sets.ts';

describe('eval sets', () => {
  it('holds out a stable share of queries', () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `query ${i}`);
    const share = keys.filter(isHeldOut).length / keys.length;
    expect(share).toBeGreaterThan(HELD_OUT_SHARE - 0.03);
    expect(share).toBeLessThan(HELD_OUT_SHARE + 0.03);
    expect(keys.map(isHeldOut)).toEqual(keys.map(isHeldOut));
  });

  it('names ISO weeks, across year ends', () => {
    expect(isoWeek('2026-11-30')).toBe('2026-W49');
    expect(isoWeek('2026-11-29')).toBe('2026-W48');
    expect(isoWeek('2027-01-01')).toBe('2026-W53');
    expect(isoWeek('2024-12-30')).toBe('2025-W01');
  });

  it('keeps a verdict that agrees with how the item was mined or that the users back, and disputes any other', () => {
    expect(isDisputed(1, 'positive', undefined)).toBe(false);
    expect(isDisputed(0, 'negative', undefined)).toBe(false);
    expect(isDisputed(1, 'negative', 1)).toBe(false);
    expect(isDisputed(0, 'positive', 0)).toBe(false);
    expect(isDisputed(1, 'negative', undefined)).toBe(true);
    expect(isDisputed(1, 'negative', 0)).toBe(true);
    expect(isDisputed(0, 'positive', undefined)).toBe(true);
    expect(isDisputed(0, 'positive', 1)).toBe(true);
  });

  it('holds out the same queries for the life of a project: a changed split would score models on questions they were trained on', () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `query ${i}`);
    expect(keys.filter(isHeldOut)).toHaveLength(1_565);
    expect(keys.slice(0, 20).flatMap((k, i) => (isHeldOut(k) ? [i] : []))).toEqual([2, 4, 5, 6, 7, 8, 12, 16, 17, 19]);
  });
});
