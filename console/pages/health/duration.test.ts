import { describe, expect, it } from 'vitest';
import { duration } from './duration.ts';

describe('duration', () => {
  it('writes a duration in the largest unit that keeps it readable', () => {
    expect([850, 12_000, 270_000, 11_520_000, 131_004_000].map((ms) => duration(ms, 'en'))).toEqual(['850 ms', '12 s', '4.5 min', '3.2 h', '1.5 d']);
  });
});
