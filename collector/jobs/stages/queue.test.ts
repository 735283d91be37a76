import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS, weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { currentThresholdStatement, thresholdOf } from '../../storage/review.ts';
import { newProject } from '../../test/fixtures.ts';
import { countedD1 } from '../../test/hooked-d1.ts';
import { nightTenDaysAgo, thresholdTightenedAt } from '../../test/review-items.ts';
import { stageContext } from '../../test/stage-context.ts';
import { queue } from './queue.ts';

const currentThreshold = async (d1: D1Database, projectId: string) => thresholdOf(await currentThresholdStatement(d1, projectId).all());

it('changes the mining threshold once a night, however often its slice runs', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  const at = (now: number) => stageContext(p.id, now);
  await thresholdTightenedAt(p.id, night - 7 * DAY_MS).run();
  // An empty queue: the night relaxes the threshold, once, even when its slice runs again in a later call.
  await queue.slice(at(night), null);
  await queue.slice(at(night + 15 * 60_000), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.7);
  // The next night relaxes it again.
  await queue.slice(at(night + DAY_MS), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.49);
});

it('changes the mining threshold once a night when its first slice runs at the first moment of the night', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo('00:00:00');
  await thresholdTightenedAt(p.id, night - 7 * DAY_MS).run();
  await queue.slice(stageContext(p.id, night), null);
  await queue.slice(stageContext(p.id, night + 60_000), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.7);
});

it('leaves the threshold and the queue as a later night left them when a missed night is run after it', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  const at = (now: number) => stageContext(p.id, now);
  await env.DB.batch([
    thresholdTightenedAt(p.id, night - 7 * DAY_MS),
    // An item worth less than the threshold tonight's run leaves, but more than one relaxed again.
    env.DB.prepare(
      `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
         evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
       values (?1, 'item-1', 'refund', 'refund?', 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 0.6, 0.6, 'held', ?2, ?2)`,
    ).bind(p.id, night - DAY_MS),
  ]);
  await queue.slice(at(night), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.7);
  // The night before, missed by the cron, run by hand afterwards: a later night decided the queue already.
  await queue.slice(at(night - DAY_MS + 60_000), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.7);
  const changes = await env.DB.prepare('select count(*) as n from mining_thresholds where project_id = ?').bind(p.id).first<{ n: number }>();
  expect(changes!.n).toBe(2);
  const item = await env.DB.prepare(`select status from review_items where project_id = ? and item_id = 'item-1'`).bind(p.id).first<{ status: string }>();
  expect(item!.status).toBe('held');
});

it('leaves the threshold as it is when a missed night is run after a later night that did not change it', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  await thresholdTightenedAt(p.id, night - 7 * DAY_MS).run();
  // A later night done, which left the threshold where it was (its queue neither overflowing nor short).
  await env.DB.prepare(
    `insert into loop_runs (project_id, night, status, stage, cursor, window_from, window_to, state, stages, started_at)
     values (?, ?, 'done', 0, null, 0, ?, '{}', '[]', ?)`,
  )
    .bind(p.id, utcDay(night), night, night)
    .run();
  // The night before it, missed by the cron, run by hand afterwards, with an empty queue that would relax the threshold.
  await queue.slice(stageContext(p.id, night - DAY_MS + 60_000), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(1);
});

it('keeps no more items waiting than a week clears when many are worth the same', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  // 200 bad answers to 200 questions, each raising its top chunk on one answer: every item is worth the same.
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < 200)
     insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
       evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
     select ?1, printf('item-%03d', i), 'q' || i, 'q' || i || '?', 'c' || i, 'doc.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 0.6, 0.6, 'held', ?2, ?2
     from n`,
  )
    .bind(p.id, night - DAY_MS)
    .run();
  const capacity = weeklyReviewCapacity(DEFAULT_LOOP_SETTINGS);
  const pending = async () =>
    (
      await env.DB.prepare(`select item_id from review_items where project_id = ? and status = 'pending' order by item_id`)
        .bind(p.id)
        .all<{ item_id: string }>()
    ).results.map((r) => r.item_id);
  const id = (i: number) => `item-${String(i).padStart(3, '0')}`;
  const { counts } = await queue.slice(stageContext(p.id, night), null);
  // The first the queue lists (ties in id order) wait; the rest are held, not dropped.
  expect(await pending()).toEqual(Array.from({ length: capacity }, (_, i) => id(i + 1)));
  expect(counts.pending).toBe(capacity);
  // Reviewers clear the week's items: the next night brings the next ones, 110 left, still a week's worth.
  await env.DB.prepare(`update review_items set status = 'answered', verdict = 'not_relevant', answered_at = ?2 where project_id = ?1 and status = 'pending'`)
    .bind(p.id, night + DAY_MS / 2)
    .run();
  await queue.slice(stageContext(p.id, night + DAY_MS), null);
  expect((await pending()).length).toBe(capacity);
  expect((await pending())[0]).toBe(id(capacity + 1));
});

it("sizes the queue in four round trips: the threshold read with the suite's questions, the queue's reads, its writes, the count", async () => {
  const p = await newProject();
  const { db, trips } = countedD1(env.DB);
  await queue.slice(stageContext(p.id, nightTenDaysAgo(), { db }), null);
  expect(trips()).toBe(4);
});
