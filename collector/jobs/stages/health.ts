import { weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { utcDay } from '../../../shared/time.ts';
import type { SliceResult, Stage } from './stage.ts';

const WEEK = 7 * 86_400_000;

/**
 * Snapshots the loop's health for the night (seed 002, 2.4, and seed 000's loop-health metrics),
 * over the last seven days. Metrics of stages not built yet (retraining) are null.
 */
export const health: Stage = {
  name: 'health',
  async slice({ db, projectId, night, now, settings }): Promise<SliceResult> {
    const since = now - WEEK;
    const sinceDay = utcDay(since);
    const [days, latency, reviewLatency, queue, drops] = await db.batch([
      db
        .prepare(
          `select sum(traces) as traces, sum(with_signals) as withSignals, sum(with_trusted) as withTrusted, sum(explicit_signals) as explicitSignals,
             sum(implicit_signals) as implicitSignals, sum(signals) as signals, sum(trusted_signals) as trustedSignals, sum(requeried) as requeried
           from day_stats where project_id = ? and day > ?`,
        )
        .bind(projectId, sinceDay),
      // Medians by the middle row: SQLite has no percentile function.
      db
        .prepare(
          `select received_at - client_ts as ms from feedback_events where project_id = ?1 and received_at > ?2
           order by ms limit 1 offset (select count(*) / 2 from feedback_events where project_id = ?1 and received_at > ?2)`,
        )
        .bind(projectId, since),
      db
        .prepare(
          `select answered_at - mined_at as ms from review_items where project_id = ?1 and answered_at > ?2
           order by ms limit 1 offset (select count(*) / 2 from review_items where project_id = ?1 and answered_at > ?2)`,
        )
        .bind(projectId, since),
      db
        .prepare(
          `select count(case when status = 'pending' then 1 end) as pending, count(case when status = 'answered' and answered_at > ?2 then 1 end) as answered,
             count(case when status = 'answered' and verdict in ('relevant', 'not_relevant') then 1 end) as confirmed
           from review_items where project_id = ?1`,
        )
        .bind(projectId, since),
      db.prepare('select coalesce(sum(dropped), 0) as dropped from client_drops where project_id = ? and day > ?').bind(projectId, sinceDay),
    ]);
    const d = days!.results[0] as Record<string, number | null>;
    const q = queue!.results[0] as { pending: number; answered: number; confirmed: number };
    const ratio = (a: number | null | undefined, b: number | null | undefined) => (b ? (a ?? 0) / b : null);
    const metrics: Record<string, number | null> = {
      /** Share of answers with any signal, and with one that survived the noise filter. */
      coverage: ratio(d.withSignals, d.traces),
      trustedCoverage: ratio(d.withTrusted, d.traces),
      /** Share of scored signals that survived the noise filter. */
      effectiveRate: ratio(d.trustedSignals, d.signals),
      /** Median time from a user's action to its storage, and from mining to a reviewer's answer. */
      eventToStorageMs: (latency!.results[0] as { ms: number } | undefined)?.ms ?? null,
      storageToReviewMs: (reviewLatency!.results[0] as { ms: number } | undefined)?.ms ?? null,
      /** Confirmed items that reached a promoted model: known once retraining runs. */
      loopClosureRate: null,
      reviewQueue: q.pending,
      reviewedLastWeek: q.answered,
      reviewBudgetPerWeek: weeklyReviewCapacity(settings),
      confirmedExamples: q.confirmed,
      retrainsPlanned: null,
      retrainsMet: null,
      evalNdcg5: null,
      traces: d.traces ?? 0,
      explicitSignals: d.explicitSignals ?? 0,
      implicitSignals: d.implicitSignals ?? 0,
      requeryRate: ratio(d.requeried, d.traces),
      outboxDrops: (drops!.results[0] as { dropped: number }).dropped,
    };
    await db
      .prepare(
        'insert into health_snapshots (project_id, day, metrics) values (?, ?, ?) on conflict (project_id, day) do update set metrics = excluded.metrics',
      )
      .bind(projectId, night, JSON.stringify(metrics))
      .run();
    return { cursor: null, counts: { snapshots: 1 } };
  },
};
