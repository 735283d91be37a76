/** Raw rows go in whole UTC days of arrival: the first day kept stays whole, from its first millisecond. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../../shared/schema/settings.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { arrivedAt, newProject, sendTraffic, trace } from '../../test/fixtures.ts';
import { sliceUntilDone, stageContext } from '../../test/stage-context.ts';
import { rawCutoff } from './raw-cutoff.ts';
import { retention } from './retention.ts';

const storedTraces = async (projectId: string) =>
  (await env.DB.prepare('select trace_id from traces where project_id = ? order by trace_id').bind(projectId).all<{ trace_id: string }>()).results.map(
    (r) => r.trace_id,
  );

it('keeps the answers and events that arrived at the first millisecond of the first day kept, and purges those of the millisecond before', async () => {
  const p = await newProject();
  const now = Date.now();
  const cutoff = rawCutoff(now, DEFAULT_LOOP_SETTINGS.retentionDays);
  const [kept, purged] = [trace({ sessionId: 's-kept' }), trace({ sessionId: 's-purged' })];
  await sendTraffic(
    p,
    [kept, purged],
    [
      { traceId: kept.traceId, sessionId: 's-kept', signalType: 'thumbs_up' },
      { traceId: purged.traceId, sessionId: 's-purged', signalType: 'thumbs_up' },
    ],
  );
  for (const [t, at] of [
    [kept, cutoff],
    [purged, cutoff - 1],
  ] as const) {
    await arrivedAt(p.id, [t.traceId], at);
  }
  await sliceUntilDone(retention, stageContext(p.id, now));
  const left = await env.DB.prepare(
    'select (select group_concat(trace_id) from traces where project_id = ?1) as traces, (select group_concat(trace_id) from feedback_events where project_id = ?1) as events',
  )
    .bind(p.id)
    .first();
  expect(left).toEqual({ traces: kept.traceId, events: kept.traceId });
});

it('keeps the outbox drop reports of the first day kept, and purges those of the day before', async () => {
  const p = await newProject();
  const now = Date.now();
  const firstKept = utcDay(rawCutoff(now, DEFAULT_LOOP_SETTINGS.retentionDays));
  const dayBefore = utcDay(Date.parse(`${firstKept}T00:00:00Z`) - DAY_MS);
  await env.DB.batch(
    [firstKept, dayBefore].map((day) =>
      env.DB.prepare('insert into client_drop_reports (project_id, event_id, day, dropped) values (?, ?, ?, 3)').bind(p.id, `e-${day}`, day),
    ),
  );
  await sliceUntilDone(retention, stageContext(p.id, now));
  const { results } = await env.DB.prepare('select day from client_drop_reports where project_id = ?').bind(p.id).all<{ day: string }>();
  expect(results.map((r) => r.day)).toEqual([firstKept]);
});

it('purges by the real clock when the night was asked for ahead of it', async () => {
  const p = await newProject();
  const now = Date.now();
  const t = trace({ sessionId: 's-recent' });
  await sendTraffic(p, [t]);
  // Stored 85 days ago: past retention at a night ten days ahead, not at the real time.
  await arrivedAt(p.id, [t.traceId], now - 85 * DAY_MS);
  await sliceUntilDone(retention, stageContext(p.id, now + 10 * DAY_MS, { purgeNow: now }));
  expect(await storedTraces(p.id)).toEqual([t.traceId]);
});
