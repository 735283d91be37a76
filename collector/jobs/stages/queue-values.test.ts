/** Which items the queue stage counts and lets wait, by their expected value. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS, weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { DAY_MS } from '../../../shared/time.ts';
import { currentThresholdStatement, thresholdOf } from '../../storage/review.ts';
import { newProject } from '../../test/fixtures.ts';
import { heldItems, nightTenDaysAgo, thresholdTightenedAt } from '../../test/review-items.ts';
import { stageContext } from '../../test/stage-context.ts';
import { queue } from './queue.ts';

const pendingValues = async (projectId: string) =>
  (
    await env.DB.prepare(`select expected_value as v from review_items where project_id = ? and status = 'pending'`).bind(projectId).all<{ v: number }>()
  ).results.map((r) => r.v);

it('keeps the threshold when the items worth exactly it fill more than a quarter of the week', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  const capacity = weeklyReviewCapacity(DEFAULT_LOOP_SETTINGS);
  await env.DB.batch([thresholdTightenedAt(p.id, night - 7 * DAY_MS), heldItems(p.id, 'at', Math.ceil(capacity / 2), 1, night - DAY_MS)]);
  await queue.slice(stageContext(p.id, night), null);
  expect(thresholdOf(await currentThresholdStatement(env.DB, p.id).all())).toBe(1);
  expect((await pendingValues(p.id)).length).toBe(Math.ceil(capacity / 2));
});

it('lets the most valuable items wait first when more than a week’s worth are at or above the threshold', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  const capacity = weeklyReviewCapacity(DEFAULT_LOOP_SETTINGS);
  // More than a week clears: the threshold rises to the lesser value, which the best leave room for a few of.
  const best = capacity - 10;
  // The lesser first and first by id, so neither the order of rows nor of ids could pass for the order of values.
  await env.DB.batch([heldItems(p.id, 'a-less', 20, 0.6, night - DAY_MS), heldItems(p.id, 'z-best', best, 0.9, night - DAY_MS)]);
  await queue.slice(stageContext(p.id, night), null);
  const values = await pendingValues(p.id);
  expect(values.length).toBe(capacity);
  expect(values.filter((v) => v === 0.9).length).toBe(best);
});

it('lets an item wait on the night the threshold relaxes below its value', async () => {
  const p = await newProject();
  const night = nightTenDaysAgo();
  await env.DB.batch([
    thresholdTightenedAt(p.id, night - 7 * DAY_MS),
    // Held below the threshold of 1; the queue is short, so tonight relaxes it to 0.7.
    heldItems(p.id, 'between', 1, 0.8, night - DAY_MS),
  ]);
  await queue.slice(stageContext(p.id, night), null);
  expect(await pendingValues(p.id)).toEqual([0.8]);
});
