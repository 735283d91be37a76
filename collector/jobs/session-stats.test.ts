/** A session's row counts its answers, the ones re-asked, and keeps what its purged answers counted. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { DAY_MS } from '../../shared/time.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

/** Two turns of session `sessionId`, the first re-asked in the second, which the user voted up. */
function reasked(sessionId: string, createdAt: number) {
  const asked = trace({ sessionId, turnIndex: 0, createdAt, query: 'What is the refund window?' });
  const again = trace({ sessionId, turnIndex: 1, createdAt: createdAt + 60_000, query: 'How long do I have to return an item?' });
  const events = [
    {
      traceId: asked.traceId,
      sessionId,
      signalType: 'rephrase_within_session' as const,
      detail: { nextTraceId: again.traceId, similarity: 0.8, gapMs: 60_000 },
    },
    { traceId: again.traceId, sessionId, signalType: 'thumbs_up' as const },
  ];
  return { traces: [asked, again] as TraceInput[], events };
}

const sessionRow = (projectId: string, sessionId: string) =>
  env.DB.prepare('select traces, requeried, first_at as firstAt from session_stats where project_id = ? and session_id = ?').bind(projectId, sessionId).first();

it("counts a session's answers that were re-asked, not every answer it scored", async () => {
  const p = await newProject();
  const { traces, events } = reasked('s-re', Date.now() - 120_000);
  await sendTraffic(p, traces, events);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect(await sessionRow(p.id, 's-re')).toEqual({ traces: 2, requeried: 1, firstAt: traces[0]!.createdAt });
});

it('keeps the time of a session’s first answer, and the re-asks its purged answers counted, when it goes on', async () => {
  const p = await newProject();
  const { traces, events } = reasked('s-long', Date.now() - 120_000);
  await sendTraffic(p, traces, events);
  // They arrived past the raw rows' retention: counted, then purged, in the same run.
  // 92 days back: its answers a minute apart are all before the first day kept, at any hour.
  const long = Date.now() - 92 * DAY_MS;
  for (const [i, t] of traces.entries()) {
    await env.DB.prepare('update traces set created_at = ?2, received_at = ?2 where project_id = ?1 and trace_id = ?3')
      .bind(p.id, long + i * 60_000, t.traceId)
      .run();
    await env.DB.prepare('update feedback_events set client_ts = ?2, received_at = ?2 where project_id = ?1 and trace_id = ?3')
      .bind(p.id, long + i * 60_000, t.traceId)
      .run();
  }
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect((await env.DB.prepare('select count(*) as n from traces where project_id = ?').bind(p.id).first<{ n: number }>())!.n).toBe(0);
  // The session goes on with a new answer.
  await sendTraffic(p, [trace({ sessionId: 's-long', turnIndex: 2 })]);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  expect(await sessionRow(p.id, 's-long')).toEqual({ traces: 3, requeried: 1, firstAt: long });
});

it('keeps the time of its last answer, purged, when an answer made before it is imported into the session later', async () => {
  const p = await newProject();
  const last = trace({ sessionId: 's-back', createdAt: Date.now() - 120_000 });
  await sendTraffic(p, [last]);
  const lastAt = Date.now() - 91 * DAY_MS;
  await env.DB.prepare('update traces set created_at = ?2, received_at = ?2 where project_id = ?1 and trace_id = ?3').bind(p.id, lastAt, last.traceId).run();
  // Counted, then purged, in the same run.
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  // A backfill brings an answer of the same session made a day before it.
  const earlier = trace({ sessionId: 's-back', createdAt: lastAt - DAY_MS });
  await sendTraffic(p, [earlier]);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  const row = await env.DB.prepare('select traces, first_at as firstAt, last_at as lastAt from session_stats where project_id = ? and session_id = ?')
    .bind(p.id, 's-back')
    .first();
  expect(row).toEqual({ traces: 2, firstAt: lastAt - DAY_MS, lastAt });
});
