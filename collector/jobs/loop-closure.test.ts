import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { queryKey } from '../../shared/terms.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { adminCall as admin, newProject } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

/** A question on the training side of the held-out split. */
const trainingQuery = (n: number) => {
  for (let i = 0; ; i++) {
    const q = `refund question ${n} wording ${i}`;
    if (!isHeldOut(queryKey(q))) return q;
  }
};

describe('loop closure in the health snapshot', () => {
  it('is the share of the training examples as they stand that the served model was trained on, never above 1', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    const item = (n: number, answeredAt: number) => {
      const query = trainingQuery(n);
      return env.DB.prepare(
        `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
           evidence, trace_count, weight, expected_value, status, verdict, answered_at, mined_at, updated_at)
         values (?1, ?2, ?3, ?4, 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 1, 1, 'answered', 'relevant', ?5, ?5, ?5)`,
      ).bind(p.id, `item-${n}`, queryKey(query), query, answeredAt);
    };
    // A model trained on three examples, served.
    await env.DB.batch([
      item(1, trainedAt - 60_000),
      item(2, trainedAt - 60_000),
      item(3, trainedAt - 60_000),
      env.DB.prepare(
        `insert into models (project_id, version, created_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons)
         values (?, 'm1', ?, 'retrain', '{}', 2, 3, null, '{}', 'promoted', '[]')`,
      ).bind(p.id, trainedAt),
      env.DB.prepare(`insert into model_rollouts (project_id, seq, at, action, version, reason) values (?, 1, ?, 'promote', 'm1', 'test')`).bind(
        p.id,
        trainedAt,
      ),
    ]);
    // Since then: two answers taken back, and one new example the model never saw.
    await admin(p, '/review/item-2', { method: 'POST', json: { verdict: null } });
    await admin(p, '/review/item-3', { method: 'POST', json: { verdict: null } });
    await env.DB.batch([item(4, Date.now() - 60_000)]);

    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    const health = await admin<{ latest: { servedModel: string | null; metrics: Record<string, number | null> } }>(p, '/health');
    // Of the two examples left, the model was trained on one.
    expect(health.body.latest.metrics.loopClosureRate).toBe(0.5);
    // The night's figures name the model they are about (the console draws eval scores per version).
    expect(health.body.latest.servedModel).toBe('m1');
  });
});
