import { describe, expect, it } from 'vitest';
import { type CountedEvent, traceAggregate } from './trace-aggregate.ts';

const event = (signalType: CountedEvent['signalType'], signalValue: number | null, confidence: number): CountedEvent => ({
  signalType,
  signalValue,
  superseded: false,
  confidence,
});

describe('a trace aggregate', () => {
  it('weighs a signal of confidence exactly 0.3 as trusted, and one below it not', () => {
    expect(traceAggregate([event('bounce', -0.3, 0.3)])).toMatchObject({ weightedScore: -0.3, trustedSignals: 1 });
    expect(traceAggregate([event('bounce', -0.3, 0.29)])).toMatchObject({ weightedScore: null, trustedSignals: 0, score: -0.3 });
  });

  it('counts a trace re-asked only by a trusted rephrase', () => {
    expect(traceAggregate([event('rephrase_within_session', -0.6, 0.6)]).requeried).toBe(true);
    expect(traceAggregate([event('rephrase_within_session', -0.6, 0.03)]).requeried).toBe(false);
  });
});
