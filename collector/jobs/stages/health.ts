import { weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { LATER_NIGHT_DONE_SQL } from '../../storage/loop-runs.ts';
import { versionServedAt } from '../../storage/models.ts';
import { eventsReceivedSql } from '../../storage/sql/events-by-arrival.ts';
import { utcDaySql } from '../../storage/sql/utc-day.ts';
import { examplesAnsweredBy } from '../../storage/training-data.ts';
import type { SliceResult, Stage } from './stage.ts';

const WEEK = 7 * DAY_MS;
/** Nights of the four weeks retraining is counted over: the night's own and the 27 before. */
const RETRAIN_NIGHTS = 28;
/** Nights retraining is counted over on a schedule of `days`: a longer period than four weeks is counted whole, so one is planned. */
const retrainNights = (days: number) => Math.max(RETRAIN_NIGHTS, days);
/** The run's window, ?2 to ?3. */
const RECEIVED = 'e.received_at > ?2 and e.received_at <= ?3';

/**
 * Figures read off the state as it is now, which no history keeps: a missed night run after a later
 * one (`POST /v1/admin/nightly?at=`) cannot know them as of its night, and leaves them null.
 */
const STATE_NOW_METRICS = ['reviewQueue', 'confirmedExamples', 'loopClosureRate'] as const;
/** Figures read off the settings, null too in such a night's snapshot when they were saved after it. */
const SETTINGS_METRICS = ['reviewBudgetPerWeek', 'retrainsPlanned', 'retrainsMet'] as const;

/**
 * Snapshots the loop's health for the night (seed 002, 2.4, and seed 000's loop-health metrics),
 * over the last seven days (the latency from event to storage, over the run's window); retraining's
 * over the last four weeks. The model is the one served at the night's moment.
 */
export const health: Stage = {
  name: 'health',
  async slice({ db, projectId, night, now, settings, run }): Promise<SliceResult> {
    const since = now - WEEK;
    // Days from the seventh before the night's: seven whole days, and the night's own so far; never
    // the days after it (a missed night caught up later, or an answer its backend dated ahead).
    const sinceDay = utcDay(since - DAY_MS);
    const [days, latency, reviewLatency, queue, drops, later, settingsSaved] = await db.batch([
      db
        .prepare(
          `select sum(traces) as traces, sum(with_signals) as withSignals, sum(with_trusted) as withTrusted, sum(explicit_signals) as explicitSignals,
             sum(implicit_signals) as implicitSignals, sum(signals) as signals, sum(trusted_signals) as trustedSignals, sum(requeried) as requeried
           from day_stats where project_id = ? and day > ? and day <= ?`,
        )
        .bind(projectId, sinceDay, night),
      // Medians by the middle row: SQLite has no percentile function. The events' over the night's
      // window (the week's would read a week of events a night, a row each).
      db
        .prepare(
          // A browser's clock ahead of the collector's would read as a negative latency: none, rather.
          `select ms from (${eventsReceivedSql('max(0, e.received_at - e.client_ts) as ms', RECEIVED)})
           order by ms limit 1 offset (select count(*) / 2 from (${eventsReceivedSql('1', RECEIVED)}))`,
        )
        .bind(projectId, run.windowFrom, run.windowTo),
      db
        .prepare(
          `select answered_at - mined_at as ms from review_items where project_id = ?1 and answered_at > ?2 and answered_at <= ?3
           order by ms limit 1 offset (select count(*) / 2 from review_items where project_id = ?1 and answered_at > ?2 and answered_at <= ?3)`,
        )
        .bind(projectId, since, now),
      db
        .prepare(
          `select count(case when status = 'pending' then 1 end) as pending, count(case when status = 'answered' and answered_at > ?2 and answered_at <= ?3 then 1 end) as answered,
             count(case when status = 'answered' and verdict in ('relevant', 'not_relevant') then 1 end) as confirmed
           from review_items where project_id = ?1`,
        )
        .bind(projectId, since, now),
      db
        .prepare('select coalesce(sum(dropped), 0) as dropped from client_drop_reports where project_id = ? and day > ? and day <= ?')
        .bind(projectId, sinceDay, night),
      db.prepare(LATER_NIGHT_DONE_SQL).bind(projectId, night),
      db.prepare('select updated_at as at from loop_settings where project_id = ?').bind(projectId),
    ]);
    // A missed night run after a later one: the later nights' snapshots hold the queue and the
    // examples as they were then, and this one must not show today's under an older day.
    const caughtUp = later!.results.length > 0;
    const settingsSince = caughtUp && ((settingsSaved!.results[0] as { at: number } | undefined)?.at ?? 0) > now;
    const retrainsPlanned = settings.retrainEveryDays > 0 ? Math.floor(retrainNights(settings.retrainEveryDays) / settings.retrainEveryDays) : null;
    const trained = await retrainingsMet(
      db,
      projectId,
      night,
      now,
      retrainsPlanned === null ? null : { days: settings.retrainEveryDays, planned: retrainsPlanned },
    );
    const version = await versionServedAt(db, projectId, now);
    const served = version
      ? await db
          .prepare(
            'select data_read_at as dataReadAt, data_read_unknown as readUnknown, created_at as createdAt, confirmed, evaluation from models where project_id = ? and version = ?',
          )
          .bind(projectId, version)
          .first<{ dataReadAt: number; readUnknown: number; createdAt: number; confirmed: number; evaluation: string }>()
      : null;
    // Held-out queries' judgements go to the eval sets, never to a model: closure counts the others.
    // The served model saw the examples answered before its training read them, as they stand: not
    // its own count, which answers taken back or erased since would lift above the examples left.
    // By that read's real time, not the model's night, which a night run ahead dates after later answers.
    // A read stored as 0 is one not known (a model posted without `dataReadAt`, and no read known of
    // the models before it): it came before the model was recorded, so the model saw at most the
    // examples answered by then, and no more than it was trained on. One not known but stored as
    // the read of the models before it may have come before that read (an older export's) or after:
    // what the model saw cannot be told, so closure is left null rather than counted from a guess.
    const closureKnown = !(served?.readUnknown && served.dataReadAt);
    const readAt = served ? served.dataReadAt || served.createdAt : null;
    const examples = caughtUp || !closureKnown ? { examples: 0, answeredBy: 0 } : await examplesAnsweredBy(db, projectId, readAt);
    const trainable = examples.examples;
    const closed = !served ? 0 : served.dataReadAt ? examples.answeredBy : Math.min(examples.answeredBy, served.confirmed);
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
      /** Confirmed training items (held-out ones excluded) that reached the model users get. */
      loopClosureRate: closureKnown ? ratio(closed, trainable) : null,
      reviewQueue: q.pending,
      reviewedLastWeek: q.answered,
      reviewBudgetPerWeek: weeklyReviewCapacity(settings),
      confirmedExamples: q.confirmed,
      /** Retrainings the schedule asked for in four weeks (one, on a longer schedule), and how many ran. */
      retrainsPlanned,
      retrainsMet: trained,
      /** The served model's nDCG@5 on the held-out eval sets when it was promoted. */
      evalNdcg5: served ? ((JSON.parse(served.evaluation) as { candidate?: { overall?: { ndcg5?: number } } }).candidate?.overall?.ndcg5 ?? null) : null,
      traces: d.traces ?? 0,
      explicitSignals: d.explicitSignals ?? 0,
      implicitSignals: d.implicitSignals ?? 0,
      requeryRate: ratio(d.requeried, d.traces),
      outboxDrops: (drops!.results[0] as { dropped: number }).dropped,
    };
    const unknown = [...(caughtUp ? STATE_NOW_METRICS : []), ...(settingsSince ? SETTINGS_METRICS : [])];
    for (const m of unknown) metrics[m] = null;
    await db
      .prepare(
        'insert into health_snapshots (project_id, day, metrics) values (?, ?, ?) on conflict (project_id, day) do update set metrics = excluded.metrics',
      )
      // The served model's version beside the figures: the console draws its eval score per version.
      .bind(projectId, night, JSON.stringify({ ...metrics, servedModel: version ?? null, ...(caughtUp && { caughtUp: true }) }))
      .run();
    const notes = [
      caughtUp && `caught up after a later night: ${unknown.join(', ')} not known as of ${night}, left null`,
      !caughtUp && !closureKnown && `loopClosureRate left null: ${version} was recorded without dataReadAt, after models that read their data`,
    ].filter((n) => typeof n === 'string');
    return { cursor: null, counts: { snapshots: 1 }, ...(notes.length > 0 && { note: notes.join('; ') }) };
  },
};

/**
 * Of the retraining periods in the four weeks up to the night (the one period up to it, when longer), how many saw a model trained, by the
 * job or by hand: a second model in one period meets no more of the schedule. Periods are counted
 * in nights back from the night, as the train stage schedules them, not in milliseconds back from
 * `now`: a run trains in whichever call of its night reaches that stage, so two models a schedule's
 * nights apart can lie less than its days apart. Without a schedule (retraining outside the job),
 * every model trained counts.
 */
async function retrainingsMet(
  db: D1Database,
  projectId: string,
  night: string,
  now: number,
  schedule: { days: number; planned: number } | null,
): Promise<number> {
  const since = Date.parse(`${night}T00:00:00Z`) - ((schedule ? retrainNights(schedule.days) : RETRAIN_NIGHTS) - 1) * DAY_MS;
  // Cast: D1 may bind a number as a real, which would make the division a fraction.
  const period = `cast((unixepoch(?4) - unixepoch(${utcDaySql('created_at')})) / 86400 / ?5 as integer)`;
  const row = schedule
    ? await db
        .prepare(
          `select count(distinct ${period}) as n from models
           where project_id = ?1 and created_at >= ?2 and created_at <= ?3 and ${period} < ?6`,
        )
        .bind(projectId, since, now, night, schedule.days, schedule.planned)
        .first<{ n: number }>()
    : await db
        .prepare('select count(*) as n from models where project_id = ? and created_at >= ? and created_at <= ?')
        .bind(projectId, since, now)
        .first<{ n: number }>();
  return row?.n ?? 0;
}
