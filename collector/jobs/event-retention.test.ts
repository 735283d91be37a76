import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { newProject } from '../test/fixtures.ts';
import { PURGE_EVENT_BATCH, retention } from './stages/retention.ts';
import type { StageContext } from './stages/stage.ts';

const DAY = 86_400_000;

/** ?2 thumbs received at ?3 for project ?1, each on an answer of its own. */
const oldEvents = () =>
  env.DB.prepare(
    `with recursive n(value) as (select 1 union all select value + 1 from n where value < ?2)
       insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, detail, client_ts, received_at)
       select ?1, 'event-' || value, 'trace-' || value, 'session', 'thumbs_down', -1, '{}', ?3, ?3 from n`,
  );

it("purges a day's events in slices of PURGE_EVENT_BATCH, more than the answers a slice purges", async () => {
  const p = await newProject();
  const now = Date.now();
  const settings = { ...DEFAULT_LOOP_SETTINGS, retentionDays: 30 };
  await oldEvents()
    .bind(p.id, PURGE_EVENT_BATCH + 1, now - (settings.retentionDays + 2) * DAY)
    .run();
  const ctx = { db: env.DB, projectId: p.id, night: new Date(now).toISOString().slice(0, 10), now, purgeNow: now, settings } as unknown as StageContext;
  const first = await retention.slice(ctx, null);
  expect(first).toMatchObject({ cursor: 'more', counts: { events: PURGE_EVENT_BATCH } });
  const second = await retention.slice(ctx, first.cursor);
  expect(second.counts).toMatchObject({ events: 1 });
  expect(await env.DB.prepare('select count(*) as n from feedback_events where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
});
