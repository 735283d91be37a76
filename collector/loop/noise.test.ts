import { describe, expect, it } from 'vitest';
import type { SignalType } from '../../shared/signals.ts';
import { assessTraceEvents, floodingSources, LOW_CONFIDENCE, type LoopEvent, type TraceContext } from './noise.ts';

let n = 0;
const T0 = Date.UTC(2026, 10, 1, 12);
const ev = (signalType: SignalType, signalValue: number | null, at: number, more: Partial<LoopEvent> = {}): LoopEvent => ({
  eventId: `e${n++}`,
  traceId: 't1',
  sessionId: 's1',
  signalType,
  signalValue,
  detail: {},
  clientTs: T0 + at,
  superseded: false,
  ...more,
});
const ctx = (more: Partial<TraceContext> = {}): TraceContext => ({
  answer: 'Opened items can be returned within 14 days of delivery.',
  userIdHash: 'u1',
  flooding: new Map(),
  ...more,
});
const byId = (events: LoopEvent[], c = ctx()) => new Map(assessTraceEvents(events, c).map((a) => [a.eventId, a]));

describe('noise rules', () => {
  it('trusts a lone thumbs-down', () => {
    const down = ev('thumbs_down', -1, 20_000);
    const a = byId([down]).get(down.eventId)!;
    expect(a.rules).toEqual([]);
    expect(a.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('marks a thumbs-down followed by a copy of the answer as reversed', () => {
    const down = ev('thumbs_down', -1, 20_000);
    const copy = ev('copy_answer', 0.7, 26_000, { detail: { chars: 300 } });
    const a = byId([copy, down]).get(down.eventId)!;
    expect(a.rules.map((r) => r.rule)).toEqual(['reversed_by_behaviour']);
    expect(a.rules[0]!.reason).toContain('copy_answer 6 s later');
    expect(a.confidence).toBeLessThan(LOW_CONFIDENCE);
  });

  it('does not call a copy before the vote a reversal', () => {
    const copy = ev('copy_answer', 0.7, 10_000);
    const down = ev('thumbs_down', -1, 20_000);
    expect(
      byId([copy, down])
        .get(down.eventId)!
        .rules.map((r) => r.rule),
    ).not.toContain('reversed_by_behaviour');
  });

  it('zeroes the second of two identical signals seconds apart', () => {
    const a = ev('wrong_source', -0.8, 20_000, { detail: { chunkId: 'c1' } });
    const b = ev('wrong_source', -0.8, 21_500, { detail: { chunkId: 'c1' } });
    const out = byId([a, b]);
    expect(out.get(a.eventId)!.confidence).toBeGreaterThan(0.5);
    expect(out.get(b.eventId)!.rules.map((r) => r.rule)).toEqual(['double_submit']);
    expect(out.get(b.eventId)!.confidence).toBe(0);
  });

  it('keeps two signals of one type on different sources, or with different values, seconds apart', () => {
    const flags = [ev('wrong_source', -0.8, 20_000, { detail: { chunkId: 'c1' } }), ev('wrong_source', -0.8, 21_000, { detail: { chunkId: 'c2' } })];
    const clicks = [ev('citation_click', 0.5, 30_000, { detail: { chunkId: 'c1' } }), ev('citation_click', 0.5, 31_000, { detail: { chunkId: 'c2' } })];
    // A misclick on the stars put right at once: the first is superseded, the second is the user's rating.
    const ratings = [ev('rating', -1, 40_000, { detail: { stars: 1 }, superseded: true }), ev('rating', 1, 41_000, { detail: { stars: 5 } })];
    // Two tickets a helpdesk filed on one answer, sent together.
    const tickets = [ev('support_ticket', -1, 50_000, { detail: { ticketId: 'HD-1' } }), ev('support_ticket', -1, 50_500, { detail: { ticketId: 'HD-2' } })];
    for (const pair of [flags, clicks, ratings, tickets]) {
      const out = byId(pair);
      expect(
        out.get(pair[1]!.eventId)!.rules.map((r) => r.rule),
        pair[1]!.signalType,
      ).not.toContain('double_submit');
      expect(out.get(pair[1]!.eventId)!.confidence, pair[1]!.signalType).toBeGreaterThan(LOW_CONFIDENCE);
    }
  });

  it('counts a vote sent twice once: the later one, which supersedes the first, is trusted', () => {
    const first = ev('thumbs_down', -1, 20_000, { superseded: true });
    const again = ev('thumbs_down', -1, 21_000);
    const out = byId([first, again]);
    expect(out.get(again.eventId)!.rules).toEqual([]);
    expect(out.get(again.eventId)!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('distrusts a vote given faster than the answer can be read', () => {
    const fast = ev('thumbs_up', 1, 300, { shownMs: 300 });
    const slow = ev('thumbs_up', 1, 9_000, { shownMs: 9_000, sessionId: 's2' });
    const out = byId([fast, slow]);
    expect(out.get(fast.eventId)!.rules.map((r) => r.rule)).toEqual(['too_fast']);
    expect(out.get(slow.eventId)!.rules).toEqual([]);
  });

  it('distrusts negatives from a flooding source, whichever key floods', () => {
    const down = ev('thumbs_down', -1, 20_000);
    const flooding = floodingSources([{ kind: 'user', key: 'u1', negatives: 40, spanMs: 600_000 }], 100);
    const a = byId([down], ctx({ flooding })).get(down.eventId)!;
    expect(a.rules.map((r) => r.rule)).toEqual(['flooding']);
    expect(a.rules[0]!.reason).toContain('40 negative signals');
    expect(a.confidence).toBeLessThan(LOW_CONFIDENCE);
  });

  it('floods at a high rate or a large share, not a frustrated reader', () => {
    const f = floodingSources(
      [
        { kind: 'session', key: 'fast', negatives: 12, spanMs: 10 * 60_000 },
        { kind: 'ip', key: 'big', negatives: 30, spanMs: 20 * 3_600_000 },
        { kind: 'session', key: 'reader', negatives: 10, spanMs: 3 * 3_600_000 },
        { kind: 'session', key: 'few', negatives: 4, spanMs: 1_000 },
      ],
      100,
    );
    expect([...f.keys()].sort()).toEqual(['ip:big', 'session:fast']);
  });

  it('cross-checks a vote against the trace and the query history', () => {
    const up = ev('thumbs_up', 1, 30_000);
    const rephrase = ev('rephrase_within_session', -0.6, 40_000);
    const regen = ev('regenerate', -0.7, 35_000, { detail: { gapMs: 5_000 } });
    expect(
      byId([up, rephrase, regen])
        .get(up.eventId)!
        .rules.map((r) => r.rule),
    ).toEqual(['contradicts_trace']);
    const lone = ev('thumbs_down', -1, 30_000);
    const h = byId([lone], ctx({ queryHistory: { traces: 12, meanScore: 0.8 } })).get(lone.eventId)!;
    expect(h.rules.map((r) => r.rule)).toEqual(['against_query_history']);
    expect(h.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('trusts terse free text less', () => {
    const c = ev('correction', -0.8, 20_000, { detail: { text: 'no' } });
    expect(
      byId([c])
        .get(c.eventId)!
        .rules.map((r) => r.rule),
    ).toEqual(['terse_text']);
  });
});
