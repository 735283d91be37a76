import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs, retryDelay } from './backoff.ts';

describe('backoffDelay', () => {
  const opts = { baseMs: 1000, maxMs: 60_000 };
  it('doubles its ceiling per attempt, jittered between half and all of it', () => {
    expect(backoffDelay(0, opts, () => 0)).toBe(500);
    expect(backoffDelay(0, opts, () => 1)).toBe(1000);
    expect(backoffDelay(3, opts, () => 1)).toBe(8000);
    expect(backoffDelay(3, opts, () => 0.5)).toBe(6000);
  });
  it('is capped, even after very many attempts', () => {
    expect(backoffDelay(100, opts, () => 1)).toBe(60_000);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.UTC(2026, 0, 1))).toBe(10_000);
  });
  it('ignores what it cannot read', () => {
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const opts = { baseMs: 1000, maxMs: 60_000 };
  it("waits as the server asks when that is longer than the backoff's, never past the longest wait", () => {
    expect(retryDelay(0, opts, undefined, () => 1)).toBe(1000);
    expect(retryDelay(0, opts, 7000, () => 1)).toBe(7000);
    expect(retryDelay(3, opts, 2000, () => 1)).toBe(8000);
    expect(retryDelay(0, opts, 3_600_000, () => 1)).toBe(60_000);
  });
});
