import { TRAINING_DATA_MAX_AGE_MS } from '../../../shared/thresholds.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { firstListedDay } from '../../loop/documents.ts';
import { isoWeek } from '../../loop/eval-sets.ts';
import { archivedCutoff } from '../../storage/archived-days.ts';
import { addPurgedSql, DAY_COUNTS, DOCUMENT_COUNTS, dayCountsSql, documentAnswersSql, documentCountsSql } from '../../storage/sql/day-counts.ts';
import { eventsReceivedSql } from '../../storage/sql/events-by-arrival.ts';
import { namedBatch } from '../../storage/sql/named-batch.ts';
import { NEXT_RUN_NIGHT } from '../../storage/sql/next-run.ts';
import { PURGED_BEFORE_STATE } from '../../storage/sql/purged-before.ts';
import { LOWER_READ_ROWIDS_SQL } from '../../storage/sql/read-rowids.ts';
import { sessionCountsSql } from '../../storage/sql/session-counts.ts';
import { clearTextChecksSql, deleteUnusedTextsSql, listTextChecksSql } from '../../storage/sql/text-checks.ts';
import { utcDaySql } from '../../storage/sql/utc-day.ts';
import { firstKeptAggregateDay, rawCutoff } from './raw-cutoff.ts';
import type { SliceResult, Stage } from './stage.ts';

/** Rows one statement deletes at most, so one slice stays short at any volume. */
export const PURGE_BATCH = 5_000;

/**
 * Events one slice purges at most: more than answers, as an event is a row and its index entries
 * where an answer is also ten or so chunk rows in two indexes. At PURGE_BATCH, a day with several
 * events an answer (five in the nightly benchmark) spent most of its purge's slices on events alone.
 */
export const PURGE_EVENT_BATCH = 4 * PURGE_BATCH;

/** Whether raw rows are due: events or answers of project ?1 that arrived before the cutoff ?3. */
const RAW_DUE = `exists (${eventsReceivedSql('1', 'e.received_at < ?3')}) or exists (select 1 from traces where project_id = ?1 and received_at < ?3)`;

/** A waiting item that none of its answers is stored for any more, as SQL over `review_items i` (project ?1). */
const NO_ANSWER_STORED = `i.status in ('pending', 'held') and not exists (
    select 1 from review_item_traces r cross join traces t on t.project_id = ?1 and t.trace_id = r.trace_id where r.project_id = ?1 and r.item_id = i.item_id)`;

/**
 * The first listed waiting items to look at (`review_item_checks`, listed as their answers are
 * purged), while no raw row is due (?3 the raw rows' cutoff): a day's purge leaves them to the slice
 * after its last, once a night rather than in each of its slices.
 */
const CHECKED_ITEMS = `select item_id from review_item_checks where project_id = ?1 and not (${RAW_DUE}) order by item_id limit ${PURGE_BATCH}`;

/**
 * Review items past their retention (?1 the project, ?2 the aggregates' cutoff, ?3 the raw rows'),
 * each on its own index: one answered before the cutoff, like other derived data (a model trained
 * on it keeps what it learnt); one waiting (pending or held) once none of its answers is stored, as
 * nobody can review it in context any more and it holds a question as typed, of those listed alone.
 */
const EXPIRED_ITEMS = `select item_id from review_items where project_id = ?1 and status = 'answered' and answered_at < ?2
  union all
  select i.item_id from (${CHECKED_ITEMS}) k cross join review_items i on i.project_id = ?1 and i.item_id = k.item_id where ${NO_ANSWER_STORED}`;

/**
 * Retention (seed 002, 5.3): raw events, traces and corrections older than the project's
 * retention are purged (with the ARCHIVE binding, only days archived as they stand: archive.ts) with what was derived from each of them alone, and review items left
 * waiting without them; aggregates (per day, document, chunk, session) and answered review items
 * stay until their own, longer retention.
 */
export const retention: Stage = {
  name: 'retention',
  async slice(ctx, cursor): Promise<SliceResult> {
    const { db, projectId, night, settings } = ctx;
    // By the real clock when the night was asked for ahead of it: a night run early purges nothing early.
    const now = ctx.purgeNow ?? ctx.now;
    // Raw rows go in whole days of arrival: a chunk day is counted again from its events only while all of them are stored.
    // With the archive on, never a day before it is archived as it stands (the archive stage ran just before).
    const due = rawCutoff(now, settings.retentionDays);
    const raw = ctx.archive ? await archivedCutoff(db, projectId, due) : due;
    const kept = now - settings.aggregateRetentionDays * DAY_MS;
    // Runs of nights before this one were abandoned, but not today's when this one runs ahead of it:
    // the cron's may be going on. (ISO days sort as strings.)
    const abandonedBefore = [night, utcDay(now)].sort()[0]!;
    const keptDay = firstKeptAggregateDay(now, settings.aggregateRetentionDays);
    // ISO weeks (YYYY-Www) sort as strings: a version before this one was frozen before keptDay's week.
    const keptWeek = isoWeek(keptDay);
    // The events due chosen by rowid, which the type index's entries carry: ordered by event id, every
    // event due was read from its row in each of the three statements, a day's events in each slice.
    const oldEventRows = `${eventsReceivedSql('e.rowid', 'e.received_at < ?2')} order by e.rowid limit ${PURGE_EVENT_BATCH}`;
    const oldEvents = `select event_id from feedback_events where rowid in (${oldEventRows})`;
    const oldTraces = `select trace_id from traces where project_id = ?1 and received_at < ?2 order by received_at, trace_id limit ${PURGE_BATCH}`;
    const statements = {
      // With the purge, in its transaction: chunk days before it are never counted again from what is left of their events.
      cutoff: db
        .prepare(
          `update loop_runs set state = json_set(state, '$.${PURGED_BEFORE_STATE}', max(coalesce(state ->> '$.${PURGED_BEFORE_STATE}', 0), ?3))
           where project_id = ?1 and night = ?2`,
        )
        .bind(projectId, night, raw),
      // Before the raw rows go, so whether any is due (EXPIRED_ITEMS) is read as the slice found them;
      // waiting items are looked for only in a slice that purges no answer, so none goes after them
      // here. Their rows first, then the items they all left.
      reviewItemRows: db
        .prepare(
          `delete from review_item_traces where rowid in (select r.rowid from (${EXPIRED_ITEMS}) x
             cross join review_item_traces r on r.project_id = ?1 and r.item_id = x.item_id limit ${PURGE_BATCH})`,
        )
        .bind(projectId, kept, raw),
      reviewItems: db
        .prepare(
          `delete from review_items where project_id = ?1 and item_id in (select x.item_id from (${EXPIRED_ITEMS}) x
             where not exists (select 1 from review_item_traces r where r.project_id = ?1 and r.item_id = x.item_id) limit ${PURGE_BATCH})`,
        )
        .bind(projectId, kept, raw),
      // Off the list, unless left with rows past this slice's batch: gone, answered, or with an answer stored.
      checkedItems: db
        .prepare(
          `delete from review_item_checks where project_id = ?1 and item_id in (${CHECKED_ITEMS})
             and not exists (select 1 from review_items i where i.project_id = ?1 and i.item_id = review_item_checks.item_id and ${NO_ANSWER_STORED})`,
        )
        .bind(projectId, kept, raw),
      assessments: db.prepare(`delete from event_assessments where project_id = ?1 and event_id in (${oldEvents})`).bind(projectId, raw),
      // With their events, by arrival: a correction's own time is the browser's, which may be far behind.
      corrections: db.prepare(`delete from corrections where project_id = ?1 and event_id in (${oldEvents})`).bind(projectId, raw),
      // Once a run (?2), any whose event went before corrections went with their events (by the browser's time).
      orphanCorrections: db
        .prepare(
          `delete from corrections where ?2 and project_id = ?1
             and not exists (select 1 from feedback_events e where e.project_id = ?1 and e.event_id = corrections.event_id)`,
        )
        .bind(projectId, cursor === null ? 1 : 0),
      events: db.prepare(`delete from feedback_events where rowid in (${oldEventRows})`).bind(projectId, raw),
      textChecks: db.prepare(listTextChecksSql(oldTraces)).bind(projectId, raw),
      // The items of the answers about to go, to look at once the purge is over. Each answer's rows
      // on the answers index: reading only ids, which the primary key holds, SQLite walks all of its
      // entries for the project for each answer, so the row's own time is read too (no index holds it).
      itemChecks: db
        .prepare(
          `insert or ignore into review_item_checks (project_id, item_id)
           select distinct ?1, r.item_id from (${oldTraces}) o cross join review_item_traces r on r.project_id = ?1 and r.trace_id = o.trace_id
           where r.mined_at is not null`,
        )
        .bind(projectId, raw),
      // Before its answers go, what they counted stays with their session (see the sessions stage).
      sessionCarry: db
        .prepare(
          `update session_stats set purged_traces = purged_traces + x.traces, purged_scored = purged_scored + x.scored,
             purged_negative = purged_negative + x.negative, purged_requeried = purged_requeried + x.requeried
           from (
             select t.session_id, ${sessionCountsSql('?3')}
             from (${oldTraces}) o cross join traces t on t.project_id = ?1 and t.trace_id = o.trace_id
             left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
             where t.session_id is not null
             group by t.session_id
           ) x
           where session_stats.project_id = ?1 and session_stats.session_id = x.session_id`,
        )
        .bind(projectId, raw, settings.badTraceScore),
      // And with their days, per day and per document: a day counted again later (an answer imported
      // for it) adds its stored answers to these. Not a day left as counted before these were kept.
      dayCarry: db
        .prepare(
          `update day_stats set ${addPurgedSql(DAY_COUNTS)}
           from (
             select ${utcDaySql('t.created_at')} as day, ${dayCountsSql('?3')}
             from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
             where t.project_id = ?1 and t.trace_id in (${oldTraces})
             group by day
           ) x
           where day_stats.project_id = ?1 and day_stats.day = x.day and day_stats.purged_traces is not null`,
        )
        .bind(projectId, raw, settings.badTraceScore),
      documentCarry: db
        .prepare(
          `update document_days set ${addPurgedSql(DOCUMENT_COUNTS)}
           from (
             select d.doc, d.versions, ${utcDaySql('d.created_at')} as day, ${documentCountsSql('?3', '?4')}
             from (${documentAnswersSql(`t.project_id = ?1 and t.trace_id in (${oldTraces})`)}) d
             group by d.doc, d.versions, day
           ) x
           where document_days.project_id = ?1 and document_days.source_doc_id = x.doc and document_days.source_doc_versions = x.versions
             and document_days.day = x.day
             and exists (select 1 from day_stats ds where ds.project_id = ?1 and ds.day = x.day and ds.purged_traces is not null)`,
        )
        .bind(projectId, raw, settings.badTraceScore, settings.goodTraceScore),
      chunkRows: db.prepare(`delete from trace_chunks where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      traceStats: db.prepare(`delete from trace_stats where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      traces: db.prepare(`delete from traces where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      readRowids: db.prepare(LOWER_READ_ROWIDS_SQL),
      // The texts of the chunks whose rows went (now or by an erasure) that no row uses any more.
      chunkTexts: db.prepare(deleteUnusedTextsSql(PURGE_BATCH)).bind(projectId),
      checkedChunks: db.prepare(clearTextChecksSql(PURGE_BATCH)).bind(projectId),
      documentDays: db.prepare('delete from document_days where project_id = ? and day < ?').bind(projectId, keptDay),
      // A day's worst answers name traces: kept only while the day is judged and they are stored.
      evidenceLists: db
        .prepare(`update document_days set worst = '[]' where project_id = ?1 and day < max(?2, ?3) and worst <> '[]'`)
        .bind(projectId, utcDay(raw), firstListedDay(now)),
      // Widgets' outbox drops, one row per report keyed by the event that carried it: raw rows,
      // summed into each night's health snapshot meanwhile.
      dropReports: db
        .prepare(`delete from client_drop_reports where rowid in (select rowid from client_drop_reports where project_id = ? and day < ? limit ${PURGE_BATCH})`)
        .bind(projectId, utcDay(raw)),
      dayStats: db.prepare('delete from day_stats where project_id = ? and day < ?').bind(projectId, keptDay),
      healthSnapshots: db.prepare('delete from health_snapshots where project_id = ? and day < ?').bind(projectId, keptDay),
      // Eval sets frozen in a week before the aggregates' retention hold users' queries: their items go
      // in batches, then the sets left empty; each layer keeps its latest, which the gate scores on.
      evalItems: db
        .prepare(
          `delete from eval_items where rowid in (select rowid from eval_items i where i.project_id = ?1 and i.version < ?2
             and i.version < (select max(s.version) from eval_sets s where s.project_id = ?1 and s.layer = i.layer) limit ${PURGE_BATCH})`,
        )
        .bind(projectId, keptWeek),
      evalSets: db
        .prepare(
          `delete from eval_sets where project_id = ?1 and version < ?2
             and version < (select max(s.version) from eval_sets s where s.project_id = ?1 and s.layer = eval_sets.layer)
             and not exists (select 1 from eval_items i where i.project_id = ?1 and i.layer = eval_sets.layer and i.version = eval_sets.version)`,
        )
        .bind(projectId, keptWeek),
      // In whole UTC days, as the days go: a session whose last answer was made on the first day kept stays with it.
      sessionStats: db
        .prepare('delete from session_stats where project_id = ? and last_at < ?')
        .bind(projectId, rawCutoff(now, settings.aggregateRetentionDays)),
      // A chunk's counts outlive its answers and events: they go once nothing has changed them for as
      // long. Once a run (?3): no index holds that time, so each look reads every chunk's counts.
      chunkStats: db.prepare('delete from chunk_stats where ?3 and project_id = ?1 and updated_at < ?2').bind(projectId, kept, cursor === null ? 1 : 0),
      chunkSignalDays: db.prepare('delete from chunk_signal_days where project_id = ? and day < ?').bind(projectId, keptDay),
      // What runs abandoned before they finished kept: their lists, the sources they found flooding, where they stopped.
      abandonedListRows: db
        .prepare(
          `delete from loop_touched where rowid in (select rowid from loop_touched where project_id = ? and night < ? and night <> ? limit ${PURGE_BATCH})`,
        )
        .bind(projectId, abandonedBefore, NEXT_RUN_NIGHT),
      abandonedQueryHistory: db
        .prepare(`delete from loop_query_history where rowid in (select rowid from loop_query_history where project_id = ? and night < ? limit ${PURGE_BATCH})`)
        .bind(projectId, abandonedBefore),
      abandonedTraceHistory: db
        .prepare(`delete from loop_trace_history where rowid in (select rowid from loop_trace_history where project_id = ? and night < ? limit ${PURGE_BATCH})`)
        .bind(projectId, abandonedBefore),
      // An erased answer's id is kept as long as its raw rows would have been: an outbox or queue delivers nothing usefully later.
      erasedTraces: db
        .prepare(`delete from erased_traces where rowid in (select rowid from erased_traces where project_id = ? and erased_at < ? limit ${PURGE_BATCH})`)
        .bind(projectId, due),
      // Queued events no write took (dead letters) are raw rows too, never replayed by now: stored then,
      // their events would be gone, and their answers are (replayed, they would outlive both).
      deadLetters: db
        .prepare(`delete from dead_letters where rowid in (select rowid from dead_letters where project_id = ? and dead_lettered_at < ? limit ${PURGE_BATCH})`)
        .bind(projectId, due),
      // Erased questions are kept only for models trained from data read before their erasure finished.
      erasedQuestions: db.prepare('delete from erased_questions where project_id = ? and erased_at < ?').bind(projectId, now - TRAINING_DATA_MAX_AGE_MS),
      abandonedRuns: db
        .prepare(
          `update loop_runs set state = json_remove(state, '$.flooding'), cursor = null
           where project_id = ? and night < ? and (state -> '$.flooding' is not null or cursor is not null)`,
        )
        .bind(projectId, abandonedBefore),
    };
    const results = await namedBatch(db, statements);
    const n = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.meta.changes])) as Record<keyof typeof statements, number>;
    // Raw rows were due exactly when the slice purged some: the waiting items are looked for in the slice after.
    const purgedRaw = n.events > 0 || n.traces > 0;
    const more =
      purgedRaw ||
      [
        n.events,
        n.traces,
        n.reviewItemRows,
        n.reviewItems,
        n.checkedChunks,
        n.checkedItems,
        n.abandonedListRows,
        n.abandonedQueryHistory,
        n.abandonedTraceHistory,
        n.evalItems,
        n.dropReports,
        n.erasedTraces,
        n.deadLetters,
      ].some((changes) => changes >= PURGE_BATCH);
    return {
      cursor: more ? 'more' : null,
      state: { [PURGED_BEFORE_STATE]: raw },
      counts: {
        events: n.events,
        traces: n.traces,
        corrections: n.corrections + n.orphanCorrections,
        dropReports: n.dropReports,
        reviewItems: n.reviewItems,
        chunkTexts: n.chunkTexts,
        aggregates: n.documentDays + n.dayStats + n.healthSnapshots + n.sessionStats + n.chunkStats + n.chunkSignalDays,
        evalItems: n.evalItems,
        abandonedListRows: n.abandonedListRows + n.abandonedQueryHistory + n.abandonedTraceHistory,
        erasedQuestions: n.erasedQuestions,
        erasedTraces: n.erasedTraces,
        deadLetters: n.deadLetters,
      },
    };
  },
};
