import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const chunks = [{ chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 1, text: 'Opened items can be refunded within 14 days of delivery.' }];
const turn = (over: Partial<TraceInput>) => trace({ retrievedChunks: chunks, rerankedChunks: undefined, sessionId: 'conv', ...over });

type Project = Awaited<ReturnType<typeof newProject>>;

const verdictOf = (projectId: string, eventId: string) =>
  env.DB.prepare('select confidence, rules from event_assessments where project_id = ? and event_id = ?')
    .bind(projectId, eventId)
    .first<{ confidence: number; rules: string }>();

describe('a conversation cut by the end of a night', () => {
  it('judges a thumbs-down again once the next question arrives in a later night', async () => {
    const p = await newProject();
    const t0 = Date.now() - 600_000;
    const answered = turn({
      turnIndex: 0,
      createdAt: t0,
      query: 'Can opened items be returned?',
      answer: 'Opened items can be returned within 14 days of delivery [1].',
    });
    const vote = { eventId: crypto.randomUUID(), traceId: answered.traceId, sessionId: 'conv', signalType: 'thumbs_down' as const, clientTs: t0 + 30_000 };
    await sendTraffic(p, [answered], [vote]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await verdictOf(p.id, vote.eventId)).toBeNull();
    // The next question, digging into that answer, reaches the collector after the night's run read its window.
    const next = turn({ turnIndex: 1, createdAt: t0 + 90_000, query: 'Do the 14 days count from delivery or from the order?', answer: 'From delivery [1].' });
    await sendTraffic(p, [next]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    const verdict = await verdictOf(p.id, vote.eventId);
    expect(JSON.parse(verdict?.rules ?? '[]')).toEqual([
      { rule: 'dug_into_after', reason: expect.stringMatching(/^the next question, 60 s later, digs into/) },
    ]);
    expect(verdict?.confidence).toBe(0.72);
  });

  /** Turns of a conversation ten minutes ago, a minute apart: the first about opened items, the rest about shipping to Canada. */
  const conversation = () => {
    const t0 = Date.now() - 600_000;
    return [
      turn({ turnIndex: 0, createdAt: t0, query: 'And if the item was opened?', answer: 'Opened items are refunded as store credit [1].' }),
      turn({ turnIndex: 1, createdAt: t0 + 60_000, query: 'Do you ship to Canada?', answer: 'Yes, shipping to Canada takes 5 to 8 days [1].' }),
      turn({ turnIndex: 2, createdAt: t0 + 120_000, query: 'Is shipping to Canada free?', answer: 'Shipping to Canada costs 15 dollars [1].' }),
    ] as const;
  };
  /** A correction sent on `on` that says the first turn's answer was wrong. */
  const correctionOfFirstTurn = (on: TraceInput) => ({
    eventId: crypto.randomUUID(),
    traceId: on.traceId,
    sessionId: 'conv',
    clientTs: on.createdAt! + 40_000,
    signalType: 'correction' as const,
    detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
  });
  /** The night's run without the first turn, whose log the backend sends only after it; then the next night's. */
  const firstTurnLoggedLate = async (p: Project, first: TraceInput, rest: TraceInput[], correction: ReturnType<typeof correctionOfFirstTurn>) => {
    await sendTraffic(p, rest, [correction]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    await sendTraffic(p, [first]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  };

  it('weighs a signal again against an earlier turn logged after it', async () => {
    const p = await newProject();
    const [earlier, followUp] = conversation();
    const correction = correctionOfFirstTurn(followUp);
    await firstTurnLoggedLate(p, earlier, [followUp], correction);
    const row = await env.DB.prepare('select attributed_trace_id from event_assessments where project_id = ? and event_id = ?')
      .bind(p.id, correction.eventId)
      .first<{ attributed_trace_id: string }>();
    expect(row?.attributed_trace_id).toBe(earlier.traceId);
  });

  it('weighs a correction two turns later against an earlier turn logged after it, as any turn its attribution window holds', async () => {
    const p = await newProject();
    const [earlier, between, last] = conversation();
    const correction = correctionOfFirstTurn(last);
    await firstTurnLoggedLate(p, earlier, [between, last], correction);
    const row = await env.DB.prepare('select attribution from event_assessments where project_id = ? and event_id = ?')
      .bind(p.id, correction.eventId)
      .first<{ attribution: string }>();
    const weighed = (JSON.parse(row?.attribution ?? '{}') as { scores?: { traceId: string }[] }).scores ?? [];
    expect(weighed.map((s) => s.traceId)).toContain(earlier.traceId);
  });
});
