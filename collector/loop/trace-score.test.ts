import { describe, expect, it } from 'vitest';
import { traceSummary } from './trace-score.ts';

const ev = (signalValue: number | null, superseded = false) => ({ signalValue, superseded });

describe('traceSummary', () => {
  it('averages the live scored events and counts every live one', () => {
    expect(traceSummary([ev(-1), ev(0.5), ev(null), ev(1, true)])).toEqual({ score: -0.25, liveEvents: 3 });
  });

  it('has no score until a live event scores the trace', () => {
    expect(traceSummary([])).toEqual({ score: null, liveEvents: 0 });
    expect(traceSummary([ev(null), ev(-1, true)])).toEqual({ score: null, liveEvents: 1 });
  });
});
