import { utcDay } from '../../../shared/time.ts';
import { TEXT_VERSION } from '../../storage/sql/chunk-text.ts';
import type { SliceResult, Stage } from './stage.ts';

/** Rows one statement deletes at most, so one slice stays short at any volume. */
export const PURGE_BATCH = 5_000;
const DAY = 86_400_000;

/**
 * Retention (seed 002, 5.3): raw events, traces and corrections older than the project's
 * retention are purged with what was derived from each of them alone; aggregates (per day,
 * document, chunk, session) stay until their own, longer retention.
 */
export const retention: Stage = {
  name: 'retention',
  async slice({ db, projectId, night, now, settings }): Promise<SliceResult> {
    const raw = now - settings.retentionDays * DAY;
    const kept = now - settings.aggregateRetentionDays * DAY;
    const keptDay = utcDay(kept);
    // Events have no index on their arrival alone (each index costs every insert): the type index
    // is walked type by type, each found by one seek, instead of reading every event of the project.
    const oldEvents = `with recursive types (t) as (
        select min(signal_type) from feedback_events where project_id = ?1
        union all select (select min(signal_type) from feedback_events where project_id = ?1 and signal_type > t) from types where t is not null
      )
      select e.event_id from types cross join feedback_events e on e.project_id = ?1 and e.signal_type = types.t and e.received_at < ?2
      order by e.event_id limit ${PURGE_BATCH}`;
    const oldTraces = `select trace_id from traces where project_id = ?1 and received_at < ?2 order by trace_id limit ${PURGE_BATCH}`;
    const results = await db.batch([
      db.prepare(`delete from event_assessments where project_id = ?1 and event_id in (${oldEvents})`).bind(projectId, raw),
      db.prepare(`delete from feedback_events where project_id = ?1 and event_id in (${oldEvents})`).bind(projectId, raw),
      db.prepare(`delete from trace_chunks where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      db.prepare(`delete from trace_stats where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      db.prepare(`delete from traces where project_id = ?1 and trace_id in (${oldTraces})`).bind(projectId, raw),
      db.prepare(`delete from corrections where project_id = ?1 and created_at < ?2`).bind(projectId, raw),
      // Texts no stored trace retrieves any more.
      db
        .prepare(
          `delete from chunk_texts where rowid in (select ct.rowid from chunk_texts ct where ct.project_id = ?1 and not exists (
             select 1 from trace_chunks c where c.project_id = ct.project_id and c.chunk_id = ct.chunk_id and ${TEXT_VERSION} = ct.source_doc_version)
           limit ${PURGE_BATCH})`,
        )
        .bind(projectId),
      db.prepare('delete from document_days where project_id = ? and day < ?').bind(projectId, keptDay),
      db.prepare('delete from day_stats where project_id = ? and day < ?').bind(projectId, keptDay),
      db.prepare('delete from health_snapshots where project_id = ? and day < ?').bind(projectId, keptDay),
      db.prepare('delete from session_stats where project_id = ? and last_at < ?').bind(projectId, kept),
      // What runs abandoned before they finished kept: their lists, the sources they found flooding, where they stopped.
      db
        .prepare(`delete from loop_touched where rowid in (select rowid from loop_touched where project_id = ? and night < ? limit ${PURGE_BATCH})`)
        .bind(projectId, night),
      db
        .prepare(
          `update loop_runs set state = json_remove(state, '$.flooding'), cursor = null
           where project_id = ? and night < ? and (state -> '$.flooding' is not null or cursor is not null)`,
        )
        .bind(projectId, night),
    ]);
    const [, events, , , traces, corrections, texts] = results.map((r) => r.meta.changes);
    const abandoned = results[11]!.meta.changes;
    const more = events! >= PURGE_BATCH || traces! >= PURGE_BATCH || texts! >= PURGE_BATCH || abandoned >= PURGE_BATCH;
    return {
      cursor: more ? 'more' : null,
      counts: {
        events: events!,
        traces: traces!,
        corrections: corrections!,
        chunkTexts: texts!,
        aggregates: results.slice(7, 11).reduce((n, r) => n + r.meta.changes, 0),
        abandonedListRows: abandoned,
      },
    };
  },
};
