import { describe, expect, it } from 'vitest';
import { DAY_MS, daysBetween, utcDay } from './time.ts';

describe('time', () => {
  it('keys a time by its UTC day, whatever the hour', () => {
    expect(utcDay(Date.UTC(2026, 11, 3, 23, 59, 59, 999))).toBe('2026-12-03');
    expect(utcDay(Date.UTC(2026, 11, 3) + DAY_MS)).toBe('2026-12-04');
  });

  it('counts whole days between two days, across months and backwards', () => {
    expect(daysBetween('2026-11-30', '2026-12-03')).toBe(3);
    expect(daysBetween('2026-12-03', '2026-11-30')).toBe(-3);
    expect(daysBetween('2026-12-31', '2027-01-07')).toBe(7);
  });
});
