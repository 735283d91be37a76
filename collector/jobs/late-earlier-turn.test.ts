/** An earlier turn logged late is weighed against by every later turn its attribution window holds, not only the next. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const chunks = [{ chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 1, text: 'Opened items can be refunded within 14 days of delivery.' }];
const turn = (over: Partial<TraceInput>) => trace({ retrievedChunks: chunks, rerankedChunks: undefined, sessionId: 'conv', ...over });

it('weighs a correction two turns later against an earlier turn logged after it', async () => {
  const p = await newProject();
  const t0 = Date.now() - 600_000;
  const earlier = turn({ turnIndex: 0, createdAt: t0, query: 'And if the item was opened?', answer: 'Opened items are refunded as store credit [1].' });
  const between = turn({ turnIndex: 1, createdAt: t0 + 60_000, query: 'Do you ship to Canada?', answer: 'Yes, shipping to Canada takes 5 to 8 days [1].' });
  const last = turn({ turnIndex: 2, createdAt: t0 + 120_000, query: 'Is shipping to Canada free?', answer: 'Shipping to Canada costs 15 dollars [1].' });
  const correction = {
    eventId: crypto.randomUUID(),
    traceId: last.traceId,
    sessionId: 'conv',
    clientTs: last.createdAt + 40_000,
    signalType: 'correction' as const,
    detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
  };
  // The backend's log of the first turn reaches the collector only after the night's run.
  await sendTraffic(p, [between, last], [correction]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  await sendTraffic(p, [earlier]);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  // Judged again with the first turn among those it is weighed against.
  const row = await env.DB.prepare('select attribution from event_assessments where project_id = ? and event_id = ?')
    .bind(p.id, correction.eventId)
    .first<{ attribution: string }>();
  const weighed = (JSON.parse(row?.attribution ?? '{}') as { scores?: { traceId: string }[] }).scores ?? [];
  expect(weighed.map((s) => s.traceId)).toContain(earlier.traceId);
});
