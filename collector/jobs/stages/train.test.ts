import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../../shared/schema/settings.ts';
import { queryKey } from '../../../shared/terms.ts';
import { utcDay } from '../../../shared/time.ts';
import { isHeldOut } from '../../loop/eval-sets.ts';
import { newProject } from '../../test/fixtures.ts';
import { stageContext } from '../../test/stage-context.ts';
import { train } from './train.ts';

const DAY = 86_400_000;
/** Midnight UTC a few days ago: the nights below fall on whole days. */
const MIDNIGHT = Date.parse(`${utcDay(Date.now() - 30 * DAY)}T00:00:00Z`);

const contextAt = (projectId: string, now: number) => stageContext(projectId, now, { settings: { ...DEFAULT_LOOP_SETTINGS, retrainEveryDays: 7 } });

/** A model the nightly job recorded at `at`, its data read then, trained on `confirmed` examples. */
const trainedAt = (projectId: string, at: number, confirmed: number) =>
  env.DB.prepare(
    `insert into models (project_id, version, created_at, data_read_at, trained_by, artifact, bytes, confirmed, evaluation, decision, reasons)
     values (?1, ?2, ?3, ?3, 'nightly', '{}', 2, ?4, '{}', 'rejected', '[]')`,
  )
    .bind(projectId, `nightly-${utcDay(at)}`, at, confirmed)
    .run();

/** Training questions (none held out), one per item. */
const questions = Array.from({ length: 200 }, (_, i) => `refund question ${i}`).filter((q) => !isHeldOut(queryKey(q)));

/** A review item answered `relevant` at `at` (null: waiting). */
const item = (projectId: string, n: number, answeredAt: number | null) =>
  env.DB.prepare(
    `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
       evidence, trace_count, weight, expected_value, status, verdict, answered_at, mined_at, updated_at)
     values (?1, ?2, ?3, ?4, 'c1', 'doc.md', 'text', 1, 1, 'positive', 'worked', 'why', '[]', 1, 1, 1, ?5, ?6, ?7, ?8, ?8)`,
  )
    .bind(
      projectId,
      `i${n}`,
      queryKey(questions[n]!),
      questions[n],
      answeredAt === null ? 'pending' : 'answered',
      answeredAt === null ? null : 'relevant',
      answeredAt,
      MIDNIGHT,
    )
    .run();

describe('the train stage’s schedule', () => {
  it('is due a whole number of nights after the last training, whatever call of its night that was in', async () => {
    const p = await newProject();
    // Last week's run reached this stage in its second call, a quarter of an hour after midnight.
    await trainedAt(p.id, MIDNIGHT + 15 * 60_000, 0);
    const sixNightsOn = await train.slice(contextAt(p.id, MIDNIGHT + 6 * DAY + 15 * 60_000), null);
    expect(sixNightsOn.counts).toEqual({ notDue: 1 });
    const sevenNightsOn = await train.slice(contextAt(p.id, MIDNIGHT + 7 * DAY), null);
    expect(sevenNightsOn.counts.notDue).toBeUndefined();
  });

  it('trains again when an answer changed, though as many examples are confirmed as last time', async () => {
    const p = await newProject();
    for (let n = 0; n < 30; n++) await item(p.id, n, MIDNIGHT - DAY);
    await item(p.id, 30, null);
    await trainedAt(p.id, MIDNIGHT, 30);
    const now = MIDNIGHT + 8 * DAY;
    expect((await train.slice(contextAt(p.id, now), null)).counts).toEqual({ nothingNew: 1 });
    // One answer taken back, another given: still 30, not the same 30.
    await env.DB.prepare(`update review_items set status = 'pending', verdict = null, answered_at = null where project_id = ? and item_id = 'i0'`)
      .bind(p.id)
      .run();
    await env.DB.prepare(`update review_items set status = 'answered', verdict = 'relevant', answered_at = ? where project_id = ? and item_id = 'i30'`)
      .bind(MIDNIGHT + DAY, p.id)
      .run();
    expect((await train.slice(contextAt(p.id, now), null)).counts.nothingNew).toBeUndefined();
  });
});
