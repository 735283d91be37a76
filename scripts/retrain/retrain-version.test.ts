import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retrainVersion } from './retrain-remote.ts';

describe('retrainVersion', () => {
  it('names a model by the millisecond it was trained, in UTC', () => {
    expect(retrainVersion(Date.UTC(2026, 10, 30, 2, 15, 0, 123))).toBe('retrain-20261130T021500.123Z');
    expect(retrainVersion(Date.UTC(2026, 10, 30, 2, 15, 0, 0))).toBe('retrain-20261130T021500.000Z');
  });

  it('gives two retrainings in the same second versions of their own, which sort as they were made', () => {
    const second = Date.UTC(2026, 10, 30, 2, 15, 0);
    expect(retrainVersion(second + 1)).not.toBe(retrainVersion(second));
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2100, 0, 1) }), fc.integer({ min: 1, max: 86_400_000 }), (at, later) => {
        const [a, b] = [retrainVersion(at), retrainVersion(at + later)];
        expect(a < b).toBe(true);
        // The registry's rule for a version: 1-100 letters, digits and . : _ -
        expect(b).toMatch(/^[\w.:-]{1,100}$/);
      }),
    );
  });
});
