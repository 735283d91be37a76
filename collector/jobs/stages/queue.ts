import { weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { adjustThreshold } from '../../loop/review-budget.ts';
import { keysOf, suiteKeysStatement, worthReviewing } from '../../storage/eval-suite.ts';
import { LATER_NIGHT_DONE_SQL } from '../../storage/loop-runs.ts';
import { currentThresholdStatement, thresholdOf } from '../../storage/review.ts';
import type { SliceResult, Stage } from './stage.ts';

/**
 * Sizes the review queue to the weekly budget: the mining threshold tightens when more waits than
 * a week clears and relaxes when the queue runs dry (each change recorded with its reason); items
 * at or above it are pending, as many as a week clears, the rest held. So are the items of a question no answer is of use for
 * (`worthReviewing`), raised before it joined the curated suite: they take none of the budget.
 */
export const queue: Stage = {
  name: 'queue',
  async slice({ db, projectId, night, settings, now }): Promise<SliceResult> {
    // Read together: the reads after them are bound to both.
    const [thresholdRow, suite] = await db.batch([currentThresholdStatement(db, projectId), suiteKeysStatement(db, projectId)]);
    const threshold = thresholdOf(thresholdRow!);
    const curated = keysOf(suite!);
    const unwanted = JSON.stringify([...curated].filter((key) => !worthReviewing(key, true)));
    const wanted = `query_key not in (select value from json_each(?3))`;
    const nightStart = Date.parse(`${night}T00:00:00Z`);
    const [pendingRows, changedSince, later] = await db.batch([
      db
        .prepare(`select expected_value as v from review_items where project_id = ?1 and status in ('pending', 'held') and expected_value >= ?2 and ${wanted}`)
        .bind(projectId, threshold, unwanted),
      db.prepare('select 1 from mining_thresholds where project_id = ? and at >= ? limit 1').bind(projectId, nightStart),
      db.prepare(LATER_NIGHT_DONE_SQL).bind(projectId, night),
    ]);
    // One change a night: this slice run again (its call cut short before the run was saved) keeps
    // the one it made, rather than relaxing or tightening twice. A missed night run after a later
    // one (`?at=`) changes nothing: the later night sized the queue, and its threshold stays current.
    const capacity = weeklyReviewCapacity(settings);
    const change =
      changedSince!.results.length > 0 || later!.results.length > 0
        ? undefined
        : adjustThreshold({ threshold, pendingValues: (pendingRows!.results as { v: number }[]).map((r) => r.v), capacity });
    const next = change?.to ?? threshold;
    // Items worth the same are common (one answer's top chunk, one thumbs-down each), and no threshold
    // parts them: of those at or above it, only the first a week clears wait, as the queue lists them.
    const waiting = `item_id in (select item_id from review_items where project_id = ?1 and status in ('pending', 'held') and expected_value >= ?2 and ${wanted}
      order by expected_value desc, item_id limit ?4)`;
    const statements = [
      db
        .prepare(
          // Only the items that change: rewriting the others would rewrite their queue index entries for nothing.
          `update review_items set status = case when ${waiting} then 'pending' else 'held' end
           where project_id = ?1 and status in ('pending', 'held') and status <> case when ${waiting} then 'pending' else 'held' end`,
        )
        .bind(projectId, next, unwanted, capacity),
    ];
    if (change) {
      statements.unshift(
        db
          .prepare('insert into mining_thresholds (project_id, at, from_value, to_value, reason) values (?, ?, ?, ?, ?)')
          .bind(projectId, now, change.from, change.to, change.reason),
      );
    }
    await db.batch(statements);
    const pending = await db
      .prepare(`select count(*) as n from review_items where project_id = ? and status = 'pending'`)
      .bind(projectId)
      .first<{ n: number }>();
    // The reason goes into the run's report too, so GET /v1/admin/runs says why the queue changed.
    const note = change && `mining threshold ${change.from.toFixed(3)} → ${change.to.toFixed(3)}: ${change.reason}`;
    return { cursor: null, counts: { pending: pending!.n, thresholdChanges: change ? 1 : 0 }, note };
  },
};
