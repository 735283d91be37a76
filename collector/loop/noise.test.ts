import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFocusedDwell } from '../../shared/signal-value.ts';
import type { SignalType } from '../../shared/signals.ts';
import { SIGNALS } from '../../shared/signals.ts';
import { followUpOn, type Turn } from './attribution.ts';
import {
  assessTraceEvents,
  DOUBLE_SUBMIT_MS,
  DUG_INTO_WITHIN_MS,
  floodingSources,
  LOW_CONFIDENCE,
  type LoopEvent,
  NOISE_RULES,
  type NoiseRule,
  type TraceContext,
} from './noise.ts';

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
/** The names of the rules that applied to event `id` among `events`. */
const ruleNames = (events: LoopEvent[], id: string, c = ctx()) =>
  byId(events, c)
    .get(id)!
    .rules.map((r) => r.rule);
/** The rules that applied to a correction of this text, alone in its answer. */
const correctionRules = (text: string) => {
  const c = ev('correction', -0.8, 20_000, { detail: { text } });
  return ruleNames([c], c.eventId);
};

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
    expect(ruleNames([copy, down], down.eventId)).not.toContain('reversed_by_behaviour');
  });

  describe('a thumbs-down, then a question digging into the same answer', () => {
    const answered: Turn = {
      traceId: 't1',
      query: 'Can opened items be returned?',
      answer: 'Opened items can be returned within 14 days of delivery.',
      at: T0,
    };
    /** The next question of the conversation, asked `at` ms after T0, as attribution reads it against the answer. */
    const next = (query: string, at: number, turnIndex?: number): TraceContext['nextQuestion'] => {
      const turn = { traceId: 't2', query, answer: '', at: T0 + at, turnIndex };
      return { query, at: turn.at, follows: followUpOn(answered, turn) };
    };
    const rulesOf = (e: LoopEvent, nextQuestion: TraceContext['nextQuestion'], more: LoopEvent[] = []) =>
      byId([e, ...more], ctx({ nextQuestion })).get(e.eventId)!;
    const digging = 'Do the 14 days count from delivery or from the order?';

    it('trusts the vote a little less: it may have been a slip', () => {
      const down = ev('thumbs_down', -1, 20_000);
      const a = rulesOf(down, next(digging, 80_000));
      expect(a.rules).toEqual([
        { rule: 'dug_into_after', reason: expect.stringMatching(/^the next question, 60 s later, digs into this answer \(\d+% of its terms are in it\)$/) },
      ]);
      // Mild: the vote stays trusted on its own.
      expect(a.confidence).toBe(0.72);
      expect(a.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    });

    it('adds to a reversal by behaviour, each its own evidence', () => {
      const down = ev('thumbs_down', -1, 20_000);
      const a = rulesOf(down, next(digging, 80_000), [ev('copy_answer', 0.7, 25_000)]);
      expect(a.rules.map((r) => r.rule)).toEqual(['reversed_by_behaviour', 'dug_into_after']);
      expect(a.confidence).toBe(0.216);
    });

    it('leaves the vote alone when the next question pushes back, re-asks, regenerates or goes elsewhere', () => {
      const down = ev('thumbs_down', -1, 20_000);
      expect(rulesOf(down, next(`That's wrong. ${digging}`, 80_000)).rules).toEqual([]);
      expect(rulesOf(down, next('不对，14 days from delivery?', 80_000)).rules).toEqual([]);
      expect(rulesOf(down, next('can opened items be returned at all?', 80_000)).rules).toEqual([]);
      expect(
        rulesOf(down, {
          query: answered.query,
          at: T0 + 80_000,
          follows: followUpOn({ ...answered, turnIndex: 1 }, { ...answered, traceId: 't1b', turnIndex: 1 }),
        }).rules,
      ).toEqual([]);
      expect(rulesOf(down, next('Do you ship to Canada?', 80_000)).rules).toEqual([]);
      expect(rulesOf(down, undefined).rules).toEqual([]);
    });

    it('needs the question after the vote, within a turn of the conversation', () => {
      expect(rulesOf(ev('thumbs_down', -1, 20_000), next(digging, 10_000)).rules).toEqual([]);
      expect(rulesOf(ev('thumbs_down', -1, 20_000), next(digging, 20_000 + DUG_INTO_WITHIN_MS + 1)).rules).toEqual([]);
      expect(rulesOf(ev('thumbs_down', -1, 20_000), next(digging, 20_000 + DUG_INTO_WITHIN_MS)).rules.map((r) => r.rule)).toEqual(['dug_into_after']);
    });

    it('reads only a thumbs-down so: a low rating, a correction or a thumbs-up is not a misclick to dig after', () => {
      for (const e of [
        ev('rating', -1, 20_000, { detail: { stars: 1 } }),
        ev('correction', -0.8, 20_000, { detail: { text: 'It is 30 days, not 14.' } }),
        ev('thumbs_up', 1, 20_000),
      ])
        expect(rulesOf(e, next(digging, 80_000)).rules, e.signalType).toEqual([]);
    });
  });

  it('zeroes a bounce from an answer its conversation went on from with another question, and trusts a lone one as its base', () => {
    const bounce = ev('bounce', -0.3, 4_000, { detail: { ms: 4_000 } });
    const asked = { query: 'And what about opened items?', at: T0 + 2_000, follows: null };
    expect(byId([bounce], ctx({ nextQuestion: asked })).get(bounce.eventId)).toEqual({
      eventId: bounce.eventId,
      confidence: 0,
      rules: [{ rule: 'asked_on', reason: 'the conversation went on with another question after this answer' }],
    });
    expect(byId([bounce]).get(bounce.eventId)).toEqual({ eventId: bounce.eventId, confidence: SIGNALS.bounce.confidence, rules: [] });
    // A next question says nothing of a thumbs-down beside the bounce unless it digs into the answer.
    const down = ev('thumbs_down', -1, 20_000);
    expect(byId([down, bounce], ctx({ nextQuestion: asked })).get(down.eventId)!.rules).toEqual([]);
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

  it('counts each character of an answer in Chinese as a word when it says how long reading it takes', () => {
    // 48 characters, no spaces: some 3 s of skimming, not the 0.8 s floor of a one-word answer.
    const answer = '已拆封的商品可以在收货后十四天内申请退款，退款将原路退回到您的付款账户，请保留好商品的原包装和发票以便审核。';
    const fast = ev('thumbs_down', -1, 1_500, { shownMs: 1_500 });
    const slow = ev('thumbs_down', -1, 9_000, { shownMs: 9_000, sessionId: 's2' });
    const out = byId([fast, slow], ctx({ answer }));
    expect(out.get(fast.eventId)!.rules.map((r) => r.rule)).toEqual(['too_fast']);
    expect(out.get(slow.eventId)!.rules).toEqual([]);
  });

  it('distrusts negatives from a flooding source, whichever key floods', () => {
    const down = ev('thumbs_down', -1, 20_000);
    const flooding = floodingSources([{ kind: 'user', key: 'u1', negatives: 40, spanMs: 600_000 }], 100);
    const a = byId([down], ctx({ flooding })).get(down.eventId)!;
    expect(a.rules.map((r) => r.rule)).toEqual(['flooding']);
    expect(a.rules[0]!.reason).toContain('40 answers failed');
    expect(a.confidence).toBeLessThan(LOW_CONFIDENCE);
  });

  it('keeps the flooding verdict an earlier night gave an event, though tonight finds no flood', () => {
    const down = ev('thumbs_down', -1, 20_000, { floodedBefore: 'session said 40 answers failed at 2400 an hour' });
    const a = byId([down]).get(down.eventId)!;
    expect(a.rules).toEqual([{ rule: 'flooding', reason: 'session said 40 answers failed at 2400 an hour' }]);
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
    expect(ruleNames([up, rephrase, regen], up.eventId)).toEqual(['contradicts_trace']);
    const lone = ev('thumbs_down', -1, 30_000);
    const h = byId([lone], ctx({ queryHistory: { traces: 12, meanScore: 0.8 } })).get(lone.eventId)!;
    expect(h.rules.map((r) => r.rule)).toEqual(['against_query_history']);
    expect(h.confidence).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('trusts terse free text less', () => {
    const c = ev('correction', -0.8, 20_000, { detail: { text: 'no' } });
    expect(ruleNames([c], c.eventId)).toEqual(['terse_text']);
  });

  it('reads a Chinese or Japanese character as saying about a word: a short correction in them is not terse, "不对" is', () => {
    expect(correctionRules('应该是14天')).toEqual([]);
    expect(correctionRules('期限は14日です')).toEqual([]);
    expect(correctionRules('不对')).toEqual(['terse_text']);
    expect(correctionRules('wrong')).toEqual(['terse_text']);
  });

  it('gives each event the verdict its rules say, read event by event against all the others, however many a trace holds', () => {
    // The rules as the README states them, one event at a time against every other (a pass per
    // event): the assessment, which reads a trace in one pass, must agree whatever the events.
    const sorted = (events: LoopEvent[]) => [...events].sort((a, b) => a.clientTs - b.clientTs || (a.eventId < b.eventId ? -1 : 1));
    const reverses = (x: LoopEvent) =>
      x.signalType === 'thumbs_up' ||
      x.signalType === 'copy_answer' ||
      (x.signalType === 'rating' && (x.signalValue ?? 0) > 0) ||
      (x.signalType === 'citation_dwell' && isFocusedDwell(x.detail.ms));
    const layerOne = (all: LoopEvent[], e: LoopEvent): NoiseRule[] => {
      const at = all.indexOf(e);
      const rules: NoiseRule[] = [];
      if ((e.signalValue ?? 0) < 0 && ['thumbs_up', 'thumbs_down', 'rating'].includes(e.signalType))
        if (all.slice(at + 1).some((x) => x.sessionId === e.sessionId && reverses(x))) rules.push('reversed_by_behaviour');
      const same = (x: LoopEvent) =>
        !x.superseded &&
        x.sessionId === e.sessionId &&
        x.signalType === e.signalType &&
        x.signalValue === e.signalValue &&
        x.detail.chunkId === e.detail.chunkId;
      if (all.slice(0, at).some((x) => same(x) && e.clientTs - x.clientTs <= DOUBLE_SUBMIT_MS) && SIGNALS[e.signalType].confidence > 0)
        rules.push('double_submit');
      return rules;
    };
    const confidence = (e: LoopEvent, rules: NoiseRule[]) =>
      Math.round(rules.reduce((c, r) => c * NOISE_RULES[r].factor, SIGNALS[e.signalType].confidence as number) * 1000) / 1000;
    const expected = (events: LoopEvent[]) => {
      const all = sorted(events);
      const first = new Map(all.map((e) => [e, confidence(e, layerOne(all, e))]));
      return new Map(
        all.map((e) => {
          const rules = layerOne(all, e);
          if (e.signalValue && !e.superseded) {
            let along = 0;
            let against = 0;
            for (const x of all) {
              if (x === e || x.superseded || !x.signalValue || first.get(x)! < LOW_CONFIDENCE) continue;
              if (Math.sign(x.signalValue) === Math.sign(e.signalValue)) along += Math.abs(x.signalValue * first.get(x)!);
              else against += Math.abs(x.signalValue * first.get(x)!);
            }
            // In exact arithmetic: 0.72 + 0.36 + 0.72 is 1.8, not the float sum's 1.8000000000000003.
            const exact = (x: number) => Math.round(x * 1e9) / 1e9;
            if (exact(against) >= 0.8 && exact(along) < exact(against) / 2) rules.push('contradicts_trace');
          }
          return [e.eventId, { rules, confidence: confidence(e, rules) }];
        }),
      );
    };
    const kinds: [SignalType, number][] = [
      ['thumbs_up', 1],
      ['thumbs_down', -1],
      ['copy_answer', 0.7],
      ['wrong_source', -0.8],
      ['rephrase_within_session', -0.6],
    ];
    const drawn = fc.record({
      kind: fc.constantFrom(...kinds),
      at: fc.integer({ min: 20_000, max: 30_000 }),
      session: fc.constantFrom('s1', 's2'),
      superseded: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(drawn, { maxLength: 30 }), (draws) => {
        const events = draws.map(({ kind: [type, value], at, session, superseded }) =>
          ev(type, value, at, { sessionId: session, superseded, detail: type === 'wrong_source' ? { chunkId: 'c1' } : {} }),
        );
        const want = expected(events);
        for (const a of assessTraceEvents(events, ctx())) expect({ rules: a.rules.map((r) => r.rule), confidence: a.confidence }).toEqual(want.get(a.eventId));
      }),
      { numRuns: 300 },
    );
    // A flood of votes on one answer is read the same way: each after the first is a double submit.
    const flood = Array.from({ length: 20_000 }, (_, i) => ev('thumbs_down', -1, 20_000 + i, { sessionId: 'flood' }));
    const verdicts = assessTraceEvents(flood, ctx());
    expect(verdicts.filter((a) => a.rules.some((r) => r.rule === 'double_submit'))).toHaveLength(19_999);
  });

  it('floods at exactly 10 answers, 20 an hour or a quarter of the project, and not one short of them', () => {
    const flooding = (negatives: number, spanMs: number, projectNegatives: number) => [
      ...floodingSources([{ kind: 'session', key: 's', negatives, spanMs }], projectNegatives).keys(),
    ];
    // 10 answers in half an hour: 20 an hour.
    expect(flooding(10, 30 * 60_000, 1_000)).toEqual(['session:s']);
    expect(flooding(9, 60_000, 1_000)).toEqual([]);
    expect(flooding(10, 30 * 60_000 + 60_000, 1_000)).toEqual([]);
    // 10 of the project's 40 over ten slow hours: a quarter.
    expect(flooding(10, 10 * 3_600_000, 40)).toEqual(['session:s']);
    expect(flooding(10, 10 * 3_600_000, 41)).toEqual([]);
  });

  it('zeroes the same signal sent again 3 s later, and keeps it a millisecond after', () => {
    const second = (gap: number) => {
      const a = ev('wrong_source', -0.8, 20_000, { detail: { chunkId: 'c1' } });
      const b = ev('wrong_source', -0.8, 20_000 + gap, { detail: { chunkId: 'c1' } });
      return ruleNames([a, b], b.eventId);
    };
    expect(second(DOUBLE_SUBMIT_MS)).toEqual(['double_submit']);
    expect(second(DOUBLE_SUBMIT_MS + 1)).toEqual([]);
  });

  it('does not call reading a source twice a double submit', () => {
    const first = ev('citation_dwell', 0.3, 20_000, { detail: { chunkId: 'c1', ms: 20_000 } });
    const again = ev('citation_dwell', 0.3, 21_000, { detail: { chunkId: 'c1', ms: 20_000 } });
    expect(byId([first, again]).get(again.eventId)!.rules).toEqual([]);
  });

  it('reads a vote as too fast only sooner than skimming takes, at 60 ms a word', () => {
    const rules = (answer: string, shownMs: number) => {
      const up = ev('thumbs_up', 1, shownMs, { shownMs });
      return byId([up], ctx({ answer }))
        .get(up.eventId)!
        .rules.map((r) => r.rule);
    };
    // Ten words: the 0.8 s floor.
    expect(rules(ctx().answer, 799)).toEqual(['too_fast']);
    expect(rules(ctx().answer, 800)).toEqual([]);
    // Fifty words: 3 s.
    const fifty = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    expect(rules(fifty, 2_999)).toEqual(['too_fast']);
    expect(rules(fifty, 3_000)).toEqual([]);
  });

  it('calls text of 7 characters terse and of 8 not', () => {
    expect(correctionRules('30 days')).toEqual(['terse_text']);
    expect(correctionRules('30 days.')).toEqual([]);
  });

  it('reads a later positive rating as reversing a thumbs-down, and a negative one not', () => {
    const rules = (stars: number) => {
      const down = ev('thumbs_down', -1, 20_000);
      const rating = ev('rating', (stars - 3) / 2, 26_000, { detail: { stars } });
      return ruleNames([down, rating], down.eventId);
    };
    expect(rules(4)).toEqual(['reversed_by_behaviour']);
    expect(rules(2)).toEqual([]);
  });

  it('contradicts a vote when the other signals weigh exactly 0.8 against it, and not when those with it weigh exactly half', () => {
    const up = ev('thumbs_up', 1, 10_000);
    // 2 stars (-0.5 × 0.9) and a "no" to a prompt (-0.5 × 0.7): 0.8 against.
    const against = [ev('rating', -0.5, 20_000, { detail: { stars: 2 } }), ev('prompt_answered', -0.5, 21_000, { detail: { answer: 'no' } })];
    expect(ruleNames([up, ...against], up.eventId)).toEqual(['contradicts_trace']);
    // A ticket (-1 × 0.9) against, 4 stars (+0.5 × 0.9) with it: half as much, not less.
    const ticket = ev('support_ticket', -1, 20_000, { sessionId: 'backend' });
    const four = ev('rating', 0.5, 21_000, { detail: { stars: 4 }, sessionId: 's2' });
    expect(byId([up, ticket, four]).get(up.eventId)!.rules).toEqual([]);
  });

  it('weighs a signal of confidence exactly 0.3 among the trusted ones: a bounce tips the others to 0.8 against a vote', () => {
    const up = ev('thumbs_up', 1, 10_000);
    // A rephrase (-0.6 × 0.6) and a "no" (-0.5 × 0.7) weigh 0.71; the bounce (-0.3 × 0.3) makes 0.8.
    const others = [ev('rephrase_within_session', -0.6, 20_000), ev('prompt_answered', -0.5, 21_000, { detail: { answer: 'no' } })];
    const bounce = ev('bounce', -0.3, 22_000, { detail: { ms: 4_000 } });
    const rules = (events: LoopEvent[]) => ruleNames([up, ...events], up.eventId);
    expect(rules(others)).toEqual([]);
    expect(rules([...others, bounce])).toEqual(['contradicts_trace']);
  });

  it('goes against the query history from 5 other answers scored 0.5 from neutral', () => {
    const down = ev('thumbs_down', -1, 30_000);
    const rules = (traces: number, meanScore: number) =>
      byId([down], ctx({ queryHistory: { traces, meanScore } }))
        .get(down.eventId)!
        .rules.map((r) => r.rule);
    expect(rules(5, 0.5)).toEqual(['against_query_history']);
    expect(rules(4, 0.9)).toEqual([]);
    expect(rules(12, 0.49)).toEqual([]);
  });
});
