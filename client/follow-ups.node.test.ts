import { describe, expect, it } from 'vitest';
import { CONTRADICTION_WINDOW_MS } from '../shared/thresholds.ts';
import { FollowUps } from './follow-ups.ts';

const t0 = Date.UTC(2026, 11, 3, 12);
const turn = (traceId: string, turnIndex: number | undefined, query: string, at: number, sessionId = 's1') => ({
  traceId,
  sessionId,
  turnIndex,
  query,
  createdAt: t0 + at,
});

describe('FollowUps', () => {
  it('reports a follow-up that pushes back on the answer before it, on that answer', () => {
    const f = new FollowUps();
    expect(f.next(turn('a', 0, 'How long do refunds take?', 0))).toBeUndefined();
    expect(f.next(turn('b', 1, "That's wrong, it is 30 days", 40_000))).toEqual({
      traceId: 'a',
      sessionId: 's1',
      at: t0 + 40_000,
      detail: { nextTraceId: 'b', gapMs: 40_000 },
    });
    // A question after it that asks rather than objects reports nothing.
    expect(f.next(turn('c', 2, 'What about opened items?', 60_000))).toBeUndefined();
  });

  it('reports on the answer a regenerate gave, and never for the regenerate itself or a retry of the same trace', () => {
    const f = new FollowUps();
    f.next(turn('a', 0, 'How long do refunds take?', 0));
    // Regenerated: the same turn asked again, in words that would read as a pushback.
    expect(f.next(turn('a2', 0, 'Actually, how long do refunds take?', 10_000))).toBeUndefined();
    expect(f.next(turn('a2', 0, 'Actually, how long do refunds take?', 10_000))).toBeUndefined();
    expect(f.next(turn('b', 1, 'No, that is not right', 20_000))?.traceId).toBe('a2');
    expect(f.next(turn('b', 1, 'No, that is not right', 20_000))).toBeUndefined();
  });

  it('keeps sessions apart, orders turns by time when they have no index, and lets an old answer be', () => {
    const f = new FollowUps();
    f.next(turn('a', undefined, 'Refund window?', 0, 's1'));
    f.next(turn('x', undefined, 'Shipping to Canada?', 1_000, 's2'));
    expect(f.next(turn('b', undefined, '不对', 5_000, 's1'))?.traceId).toBe('a');
    // An earlier turn logged late is not the answer the conversation is at.
    expect(f.next(turn('late', undefined, 'Where is my order?', 500, 's2'))).toBeUndefined();
    expect(f.next(turn('y', undefined, 'Are you sure?', 1_000 + CONTRADICTION_WINDOW_MS + 1, 's2'))).toBeUndefined();
  });

  it('passes over what is not a trace, without throwing', () => {
    const f = new FollowUps();
    for (const bad of [null, undefined, 5, {}, { traceId: 'a', sessionId: 's', query: 3, createdAt: t0 }]) expect(f.next(bad as never)).toBeUndefined();
    f.next(turn('a', 0, 'Refund window?', 0));
    expect(f.next({ ...turn('b', 1, "That's wrong", 1_000), sessionId: undefined })).toBeUndefined();
  });

  it('forgets the conversation answered longest ago past its limit', () => {
    const f = new FollowUps(2);
    f.next(turn('a', 0, 'Refund window?', 0, 's1'));
    f.next(turn('x', 0, 'Shipping?', 0, 's2'));
    f.next(turn('p', 0, 'Returns?', 0, 's3'));
    expect(f.next(turn('b', 1, "That's wrong", 1_000, 's1'))).toBeUndefined();
    expect(f.next(turn('q', 1, "That's wrong", 1_000, 's3'))?.traceId).toBe('p');
  });
});
