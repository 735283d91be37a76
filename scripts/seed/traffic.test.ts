import { describe, expect, it } from 'vitest';
import { FollowUps } from '../../client/follow-ups.ts';
import { simulate } from './traffic.ts';

describe('the seed traffic', () => {
  const now = Date.UTC(2026, 0, 15);
  const ids = (t: ReturnType<typeof simulate>) => [...t.traces.map((x) => x.traceId), ...t.events.map((e) => e.eventId)];

  it('gives the same ids for the same seed and size, so seeding twice adds nothing', () => {
    expect(ids(simulate({ sessions: 10, seed: 7, now }))).toEqual(ids(simulate({ sessions: 10, seed: 7, now })));
  });

  it('gives new ids for another size or seed, so their traffic is not taken for a duplicate', () => {
    const first = new Set(ids(simulate({ sessions: 10, seed: 7, now })));
    for (const other of [simulate({ sessions: 20, seed: 7, now }), simulate({ sessions: 10, seed: 8, now })]) {
      expect(ids(other).filter((id) => first.has(id))).toEqual([]);
    }
  });

  it("marks an answer contradicted exactly where the backend's client would, from the next question's words", () => {
    const { traces, events } = simulate({ now });
    const followUps = new FollowUps();
    const expected = [...traces]
      .sort((a, b) => a.createdAt - b.createdAt)
      .flatMap((t) => followUps.next(t) ?? [])
      .map((c) => `${c.traceId}>${c.detail.nextTraceId}`);
    const sent = events
      .filter((e) => e.signalType === 'contradicted_by_follow_up')
      .map((e) => `${e.traceId}>${(e.detail as { nextTraceId: string }).nextTraceId}`);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.sort()).toEqual(expected.sort());
  });
});
