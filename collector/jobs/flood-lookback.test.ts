import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { DAY_MS } from '../../shared/time.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

/**
 * Fifteen answers; eight downvotes and a correction, not yet a flood, so the correction reaches
 * the inbox; a night; six more downvotes, which make it one; the next night. Each answer in the
 * session `sessionOf` gives it. Answers how many corrections were open after each night, the
 * second night's count of flooding sources and how many of the project's events are still trusted.
 */
async function floodOverTwoNights(sessionOf: (i: number) => string, over: Partial<TraceInput> = {}) {
  const p = await newProject();
  const answers = Array.from({ length: 15 }, (_, i) => trace({ ...over, sessionId: sessionOf(i), createdAt: Date.now() - 60_000 }));
  const downvote = (i: number) => ({
    traceId: answers[i]!.traceId,
    sessionId: sessionOf(i),
    signalType: 'thumbs_down' as const,
    clientTs: Date.now() - 50_000 + i * 1_000,
  });
  const correction = {
    traceId: answers[8]!.traceId,
    sessionId: sessionOf(8),
    signalType: 'correction' as const,
    detail: { text: 'Refunds take 30 days, not 14.' },
    clientTs: Date.now() - 40_000,
  };
  const open = async () =>
    (await env.DB.prepare(`select count(*) as n from corrections where project_id = ? and status = 'open'`).bind(p.id).first<{ n: number }>())!.n;
  await sendTraffic(p, answers);
  await sendTraffic(p, [], [...[0, 1, 2, 3, 4, 5, 6, 7].map(downvote), correction]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const openBefore = await open();
  await sendTraffic(p, [], [9, 10, 11, 12, 13, 14].map(downvote));
  const summary = await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  const trusted = await env.DB.prepare(
    `select count(*) as n from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
     where a.project_id = ? and a.confidence >= 0.5`,
  )
    .bind(p.id)
    .first<{ n: number }>();
  return {
    open: [openBefore, await open()],
    floodingSources: summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts.floodingSources,
    trusted: trusted!.n,
  };
}

it('distrusts what a flood sent before the night that found it, in the day it looks back over', async () => {
  const found = await floodOverTwoNights(() => 'flooder');
  expect(found.floodingSources).toBeGreaterThan(0);
  expect(found.open).toEqual([1, 0]);
  expect(found.trusted).toBe(0);
});

it('distrusts what a flooding user sent before the night that found them, from any session or address', async () => {
  // One signed-in user, each answer in a session (and so a call, from an address) of its own.
  const found = await floodOverTwoNights((i) => `s-${i}`, { userIdHash: 'u-flood' });
  expect(found.floodingSources).toBeGreaterThan(0);
  expect(found.open).toEqual([1, 0]);
  expect(found.trusted).toBe(0);
});

it('keeps distrusting a flood when its answers are assessed again, after the nights that look for floods have passed it', async () => {
  const p = await newProject();
  const answers = Array.from({ length: 12 }, () => trace({ sessionId: 'flooder', createdAt: Date.now() - 60_000 }));
  await sendTraffic(p, answers);
  await sendTraffic(
    p,
    [],
    answers.map((a, i) => ({ traceId: a.traceId, sessionId: 'flooder', signalType: 'thumbs_down' as const, clientTs: Date.now() - 50_000 + i * 1_000 })),
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const floodVote = async () =>
    (await env.DB.prepare(
      `select a.confidence, a.rules from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
       where a.project_id = ? and e.trace_id = ? and e.signal_type = 'thumbs_down'`,
    )
      .bind(p.id, answers[0]!.traceId)
      .first<{ confidence: number; rules: string }>())!;
  expect((await floodVote()).confidence).toBeLessThan(0.3);
  // Days later: the flood arrived before any night's look-back, and another reader engages with one of its answers.
  await env.DB.prepare(`update feedback_events set received_at = received_at - ? where project_id = ? and session_id = 'flooder'`)
    .bind(3 * DAY_MS, p.id)
    .run();
  await sendTraffic(p, [], [{ traceId: answers[0]!.traceId, sessionId: 'reader', signalType: 'citation_click', detail: { chunkId: 'c1' } }]);
  const summary = await runNightly(env, nightsAfterNow(2), { projects: [p.id] });
  expect(summary.runs[0]!.error).toBeUndefined();
  expect(summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts.touchedByEvents).toBe(1);
  expect(summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts.floodingSources ?? 0).toBe(0);
  const again = await floodVote();
  expect(again.confidence).toBeLessThan(0.3);
  expect(JSON.parse(again.rules)).toContainEqual(expect.objectContaining({ rule: 'flooding' }));
});
