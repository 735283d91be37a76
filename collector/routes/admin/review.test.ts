import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DEFAULT_MINING_THRESHOLD } from '../../loop/review-budget.ts';
import { adminCall, bearer, call, newProject } from '../../test/fixtures.ts';
import { countedD1 } from '../../test/hooked-d1.ts';

it('GET /v1/admin/review reads the mining threshold in the round trip of the queue counts', async () => {
  const p = await newProject();
  const { db: DB, trips } = countedD1(env.DB);
  const threshold = async () => (await adminCall<{ budget: { miningThreshold: number } }>(p, '/review')).body.budget.miningThreshold;
  expect((await call('/v1/admin/review', { headers: bearer(p.keys.admin), bindings: { DB } })).status).toBe(200);
  // The key and its project's origins (the key's check), the items, the counts with the threshold, the examples, the last model, the settings.
  expect(trips()).toBe(7);
  expect(await threshold()).toBe(DEFAULT_MINING_THRESHOLD);
  await env.DB.prepare(`insert into mining_thresholds (project_id, at, from_value, to_value, reason) values (?, ?, ?, 0.25, 'loosened')`)
    .bind(p.id, Date.now(), DEFAULT_MINING_THRESHOLD)
    .run();
  expect(await threshold()).toBe(0.25);
});
