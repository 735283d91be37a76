import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { queryKey } from '../../../shared/terms.ts';
import { isHeldOut } from '../../loop/eval-sets.ts';
import { adminCall as admin, newProject } from '../../test/fixtures.ts';

/** A question on the training side of the held-out split. */
const trainingQuery = (n: number) => {
  for (let i = 0; ; i++) {
    const q = `refund question ${n} wording ${i}`;
    if (!isHeldOut(queryKey(q))) return q;
  }
};

type Training = { training: { examples: number; trainedOn: number; ready: boolean } };

describe('GET /v1/admin/review training readiness', () => {
  it('is ready when an answer changed since the last model, as the nightly job retrains then, though the count is the same', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    const insert = (n: number, verdict: string) => {
      const query = trainingQuery(n);
      return env.DB.prepare(
        `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
           evidence, trace_count, weight, expected_value, status, verdict, answered_at, mined_at, updated_at)
         values (?1, ?2, ?3, ?4, 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 1, 1, 'answered', ?5, ?6, ?6, ?6)`,
      ).bind(p.id, `item-${n}`, queryKey(query), query, verdict, trainedAt - 60_000);
    };
    await env.DB.batch([
      insert(1, 'relevant'),
      insert(2, 'not_relevant'),
      env.DB.prepare(
        `insert into models (project_id, version, created_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons)
         values (?, 'm1', ?, 'retrain', '{}', 2, 2, null, '{}', 'rejected', '[]')`,
      ).bind(p.id, trainedAt),
    ]);
    await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
    expect((await admin<Training>(p, '/review?status=answered')).body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: false });

    // A reviewer changes an answer: as many examples as the model saw, one of them new to it.
    expect((await admin(p, '/review/item-1', { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);
    const after = await admin<Training>(p, '/review');
    expect(after.body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: true });
  });

  it('is not ready when a reviewer only gives an answer again as it was, and the answer keeps its time', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    const answeredAt = trainedAt - 60_000;
    const query = trainingQuery(3);
    await env.DB.batch([
      env.DB.prepare(
        `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
           evidence, trace_count, weight, expected_value, status, verdict, answered_at, mined_at, updated_at)
         values (?1, 'item-3', ?2, ?3, 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 1, 1, 'answered', 'relevant', ?4, ?4, ?4)`,
      ).bind(p.id, queryKey(query), query, answeredAt),
      env.DB.prepare(
        `insert into models (project_id, version, created_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons)
         values (?, 'm1', ?, 'retrain', '{}', 2, 1, null, '{}', 'rejected', '[]')`,
      ).bind(p.id, trainedAt),
    ]);
    await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
    // The same key pressed again, with a note this time.
    const again = await admin<{ verdict: string; note: string; answeredAt: number }>(p, '/review/item-3', {
      method: 'POST',
      json: { verdict: 'relevant', note: 'checked twice' },
    });
    expect(again.body).toMatchObject({ verdict: 'relevant', note: 'checked twice', answeredAt });
    expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ examples: 1, trainedOn: 1, ready: false });
    expect((await admin<{ newExamples: boolean }>(p, '/training-data')).body.newExamples).toBe(false);
  });
});
