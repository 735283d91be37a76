import { describe, expect, it } from 'vitest';
import { contradictsAnswer } from '../../shared/contradiction.ts';
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

  it('has users push back on an answer in their next question, which the collector marks from the words alone', () => {
    const { traces, events } = simulate({ now });
    const pushbacks = traces.filter((t) => contradictsAnswer(t.query));
    expect(pushbacks.length).toBeGreaterThan(0);
    for (const t of pushbacks) {
      const before = traces.find((u) => u.sessionId === t.sessionId && u.turnIndex === t.turnIndex! - 1);
      expect(t.createdAt - before!.createdAt).toBe(45_000);
    }
    expect(events.filter((e) => e.signalType === 'contradicted_by_follow_up')).toEqual([]);
  });
});
