/** Rows of answered review items and of trained models, for tests of what the loop counts from them. */
import { env } from 'cloudflare:workers';
import { queryKey } from '../../shared/terms.ts';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { isHeldOut } from '../loop/eval-sets.ts';

/** A question on the training side of the held-out split. */
export const trainingQuery = (n: number) => {
  for (let i = 0; ; i++) {
    const q = `refund question ${n} wording ${i}`;
    if (!isHeldOut(queryKey(q))) return q;
  }
};

/** Review item `item-<n>`, on training question `n`, answered with `verdict` at `answeredAt`. */
export function answeredItem(projectId: string, n: number, verdict: 'relevant' | 'not_relevant' | 'unclear', answeredAt: number) {
  const query = trainingQuery(n);
  return env.DB.prepare(
    `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
       evidence, trace_count, weight, expected_value, status, verdict, answered_at, mined_at, updated_at)
     values (?1, ?2, ?3, ?4, 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 1, 1, 'answered', ?5, ?6, ?6, ?6)`,
  ).bind(projectId, `item-${n}`, queryKey(query), query, verdict, answeredAt);
}

/** Model `version`, trained at `createdAt` (its data read then) on `confirmed` examples, and the gate's decision on it. */
export const trainedModel = (projectId: string, version: string, createdAt: number, confirmed: number, decision: 'promoted' | 'rejected') =>
  env.DB.prepare(
    `insert into models (project_id, version, created_at, data_read_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons)
     values (?1, ?2, ?3, ?3, 'retrain', '{}', 2, ?4, null, '{}', ?5, '[]')`,
  ).bind(projectId, version, createdAt, confirmed, decision);

/** `count` held items `<prefix>-001`… worth `value` each, each on a question of its own. */
export const heldItems = (projectId: string, prefix: string, count: number, value: number, minedAt: number) =>
  env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?3)
     insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
       evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
     select ?1, printf('%s-%03d', ?2, i), ?2 || i, ?2 || i || '?', 'c' || i, 'doc.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, ?4, ?4, 'held', ?5, ?5
     from n`,
  ).bind(projectId, prefix, count, value, minedAt);

/** The mining threshold tightened from 0 to 1 at `at`. */
export const thresholdTightenedAt = (projectId: string, at: number) =>
  env.DB.prepare(`insert into mining_thresholds (project_id, at, from_value, to_value, reason) values (?, ?, 0, 1, 'tightened')`).bind(projectId, at);

/** A night ten days ago, at `time` (UTC) into it: whole days of its own before and after it, whatever the hour now. */
export const nightTenDaysAgo = (time = '00:00:30') => Date.parse(`${utcDay(Date.now() - 10 * DAY_MS)}T${time}Z`);
