import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from './ids.ts';
import { type FeedbackEventInput, FeedbackEventSchema } from './schema/event.ts';
import { signalValue } from './signal-value.ts';
import { SIGNAL_TYPES, SIGNALS, type SignalSpec } from './signals.ts';

const ev = (signalType: string, detail?: unknown) =>
  v.parse(FeedbackEventSchema, { eventId: uuidv7(), traceId: 't', sessionId: 's', clientTs: Date.now(), signalType, detail } as FeedbackEventInput);

describe('the signal table', () => {
  it('keeps the seed weights', () => {
    expect(SIGNALS.thumbs_down.value).toBe(-1);
    expect(SIGNALS.thumbs_up.value).toBe(1);
    expect(SIGNALS.citation_click.value).toBe(0.5);
    expect(SIGNALS.regenerate.value).toBe(-0.7);
    expect(SIGNALS.rephrase_within_session.value).toBe(-0.6);
    expect(SIGNALS.contradicted_by_follow_up.value).toBe(-0.8);
  });

  it('starts each signal from the base confidence the noise filter documents', () => {
    expect([SIGNALS.thumbs_up, SIGNALS.thumbs_down, SIGNALS.rating].map((s) => s.confidence)).toEqual([0.9, 0.9, 0.9]);
    expect(SIGNALS.correction.confidence).toBe(0.95);
    expect(SIGNALS.citation_click.confidence).toBe(0.4);
    expect(SIGNALS.bounce.confidence).toBe(0.3);
    for (const type of SIGNAL_TYPES) if (SIGNALS[type].kind === 'context') expect(SIGNALS[type].confidence, type).toBe(0);
  });

  it('documents every signal and keeps every value on [-1, 1]', () => {
    for (const type of SIGNAL_TYPES) {
      const spec: SignalSpec = SIGNALS[type];
      expect(spec.why.length, type).toBeGreaterThan(20);
      for (const value of [spec.value ?? 0, ...Object.values(spec.values ?? {})]) expect(Math.abs(value), type).toBeLessThanOrEqual(1);
    }
  });

  it('computes detail-dependent values', () => {
    expect([1, 2, 3, 4, 5].map((stars) => signalValue(ev('rating', { stars })))).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(signalValue(ev('regenerate', { gapMs: 5_000 }))).toBe(-0.7);
    expect(signalValue(ev('regenerate', { gapMs: 45_000 }))).toBe(-0.3);
    // Within 30 s includes the 30th second.
    expect(signalValue(ev('regenerate', { gapMs: 30_000 }))).toBe(-0.7);
    expect(signalValue(ev('regenerate', { gapMs: 30_001 }))).toBe(-0.3);
    expect(signalValue(ev('citation_dwell', { chunkId: 'c', ms: 15_000, mode: 'away' }))).toBe(0.3);
    expect(signalValue(ev('citation_dwell', { chunkId: 'c', ms: 14_999, mode: 'preview' }))).toBe(0);
    expect(signalValue(ev('prompt_answered', { promptId: 'p', answer: 'yes' }))).toBe(0.5);
    expect(signalValue(ev('prompt_answered', { promptId: 'p', answer: 'no' }))).toBe(-0.5);
    expect(signalValue(ev('prompt_answered', { promptId: 'p', answer: 'later' }))).toBeNull();
    expect(signalValue(ev('answer_dwell', { ms: 3 }))).toBeNull();
  });
});

describe('uuidv7', () => {
  it('is a version-7 UUID that sorts by creation time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(a.slice(0, 13)).toBe('018bcfe5-6800');
  });
});
