import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { newProject } from '../../test/fixtures.ts';
import { stageContext } from '../../test/stage-context.ts';
import { finish } from './finish.ts';
import { PURGE_BATCH } from './retention.ts';

it('clears a night’s lists and question and answer scores a bounded batch a slice, however many rows a bulk night listed', async () => {
  const p = await newProject();
  const night = '2026-11-30';
  await env.DB.prepare(
    `with recursive n (i) as (select 1 union all select i + 1 from n where i < ?3)
     insert into loop_touched (project_id, night, kind, key) select ?1, ?2, 'trace', 't-' || i from n`,
  )
    .bind(p.id, night, PURGE_BATCH + 10)
    .run();
  await env.DB.prepare(
    `insert into loop_query_history (project_id, night, query_key, traces, total) values (?1, ?2, 'refund', 5, 4), (?1, ?2, 'shipping', 2, -1), (?1, ?2, 'warranty', 0, 0)`,
  )
    .bind(p.id, night)
    .run();
  await env.DB.prepare(`insert into loop_trace_history (project_id, night, trace_id, query_key, weighted_score) values (?1, ?2, 't-1', 'refund', 1)`)
    .bind(p.id, night)
    .run();
  const ctx = stageContext(p.id, Date.parse(`${night}T00:00:30Z`), { bulk: { fromTraces: 1, share: 1 } });
  const first = await finish.slice(ctx, null);
  expect(first).toEqual({ cursor: 'more', counts: { cleared: PURGE_BATCH + 4 } });
  const last = await finish.slice(ctx, first.cursor);
  expect(last).toEqual({ cursor: null, counts: { cleared: 10 }, state: { flooding: null } });
  for (const table of ['loop_touched', 'loop_query_history', 'loop_trace_history']) {
    const left = await env.DB.prepare(`select count(*) as n from ${table} where project_id = ?`).bind(p.id).first<{ n: number }>();
    expect(left!.n, table).toBe(0);
  }
});
