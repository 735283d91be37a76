import { describe, expect, it } from 'vitest';
import { adjustThreshold, DEFAULT_MINING_THRESHOLD } from './review-budget.ts';

describe('the review budget', () => {
  it('tightens to the value of the last item the week clears when too many wait', () => {
    const change = adjustThreshold({ threshold: 0, pendingValues: [5, 1, 4, 2, 3], capacity: 3 });
    expect(change).toMatchObject({ from: 0, to: 3 });
    expect(change!.reason).toContain('5 items wait');
  });

  it('keeps the threshold while the queue fits the budget', () => {
    expect(adjustThreshold({ threshold: 2, pendingValues: [3, 4], capacity: 3 })).toBeUndefined();
  });

  it('relaxes step by step when the queue runs dry, down to the default', () => {
    const change = adjustThreshold({ threshold: 1, pendingValues: [], capacity: 90 });
    expect(change).toMatchObject({ from: 1, to: 0.7 });
    expect(adjustThreshold({ threshold: 0.005, pendingValues: [], capacity: 90 })?.to).toBe(DEFAULT_MINING_THRESHOLD);
    expect(adjustThreshold({ threshold: DEFAULT_MINING_THRESHOLD, pendingValues: [], capacity: 90 })).toBeUndefined();
  });

  it('changes nothing while as many items wait as the week clears, or as many as a quarter of it, or when the bar would not move', () => {
    expect(adjustThreshold({ threshold: 0, pendingValues: [5, 1, 4], capacity: 3 })).toBeUndefined();
    const quarter = Array.from({ length: 10 }, () => 2);
    expect(adjustThreshold({ threshold: 1, pendingValues: quarter, capacity: 40 })).toBeUndefined();
    expect(adjustThreshold({ threshold: 1, pendingValues: quarter.slice(1), capacity: 40 })).toMatchObject({ from: 1, to: 0.7 });
    // Too many wait, but the last item the week clears is worth the bar already.
    expect(adjustThreshold({ threshold: 3, pendingValues: [5, 3, 4, 3], capacity: 3 })).toBeUndefined();
  });
});
