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
});
