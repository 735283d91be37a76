import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { isoWeek } from '../loop/eval-sets.ts';
import { newProject } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

const versions = async (projectId: string, table: 'eval_sets' | 'eval_items') =>
  (await env.DB.prepare(`select distinct version from ${table} where project_id = ? order by 1`).bind(projectId).all<{ version: string }>()).results.map(
    (r) => r.version,
  );

describe('eval sets past retention', () => {
  it("purges the versions frozen before the aggregates' retention, whose items hold users' queries, and keeps each layer's latest", async () => {
    const p = await newProject();
    const now = Date.now();
    const old = isoWeek(utcDay(now - 800 * DAY));
    const recent = isoWeek(utcDay(now - 100 * DAY));
    // The echo layer's latest version is old too: the gate still needs it.
    const frozen = [
      ['echo', old],
      ['echo', recent],
      ['variant', old],
    ] as const;
    await env.DB.batch(
      frozen.flatMap(([layer, version]) => [
        env.DB.prepare('insert into eval_sets (project_id, layer, version, items, created_at) values (?, ?, ?, 1, 0)').bind(p.id, layer, version),
        env.DB.prepare(
          `insert into eval_items (project_id, layer, version, position, query, query_key, trace_id, judgements, source)
           values (?, ?, ?, 0, 'what is the refund window for my order 12345', 'order refund window', 't-gone', '{}', 'review')`,
        ).bind(p.id, layer, version),
      ]),
    );
    // Tonight's sets are frozen at the start of next week, so none is built over these.
    await env.DB.prepare("insert into eval_sets (project_id, layer, version, items, created_at) values (?, 'conflict', ?, 0, 0)")
      .bind(p.id, isoWeek(utcDay(now)))
      .run();
    expect((await runNightly(env, now + 1_000, { projects: [p.id] })).done).toBe(true);
    // Two years (730 days) by default: the old echo version goes, the recent one and the variant layer's only one stay.
    expect(await env.DB.prepare("select version from eval_sets where project_id = ? and layer = 'echo'").bind(p.id).all()).toMatchObject({
      results: [{ version: recent }],
    });
    expect(await versions(p.id, 'eval_items')).toEqual([old, recent].sort());
    expect(
      (await env.DB.prepare("select count(*) as n from eval_items where project_id = ? and layer = 'echo' and version = ?")
        .bind(p.id, old)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    expect(await versions(p.id, 'eval_sets')).toContain(old);
  });
});
