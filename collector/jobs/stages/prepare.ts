import { FLOOD_MIN_NEGATIVES, floodingSources, NEGATIVE_EXPLICIT, type SourceCount } from '../../loop/noise.ts';
import type { Stage } from './index.ts';

/** How far back the flooding rule counts a source's negatives, beyond the run's window. */
export const FLOOD_LOOKBACK_MS = 24 * 3_600_000;

/** Negative explicit signals, as SQL: the events the flooding rule counts. */
const negative = (alias = '') => `${alias}signal_value < 0 and ${alias}signal_type in (${NEGATIVE_EXPLICIT.map((t) => `'${t}'`).join(', ')})`;

/**
 * Lists the traces this run must look at (new traces, traces with new events) and finds the
 * sources flooding negative feedback, once for all the slices that follow.
 */
export const prepare: Stage = {
  name: 'prepare',
  async slice({ db, projectId, night, run }) {
    const from = run.windowFrom;
    const to = run.windowTo;
    const since = Math.max(0, from - FLOOD_LOOKBACK_MS);
    const [events, traces, counts, total] = await db.batch([
      db
        .prepare(
          'insert or ignore into loop_touched (project_id, night, trace_id) select distinct ?1, ?2, trace_id from feedback_events where project_id = ?1 and received_at > ?3 and received_at <= ?4',
        )
        .bind(projectId, night, from, to),
      db
        .prepare('insert or ignore into loop_touched (project_id, night, trace_id) select ?1, ?2, trace_id from traces where project_id = ?1 and received_at > ?3 and received_at <= ?4')
        .bind(projectId, night, from, to),
      db
        .prepare(
          `select 'session' as kind, session_id as key, count(*) as negatives, max(client_ts) - min(client_ts) as spanMs
             from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ${negative()}
             group by session_id having count(*) >= ?4
           union all
           select 'user', t.user_id_hash, count(*), max(e.client_ts) - min(e.client_ts)
             from feedback_events e join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
             where e.project_id = ?1 and e.received_at > ?2 and e.received_at <= ?3 and t.user_id_hash is not null and ${negative('e.')}
             group by t.user_id_hash having count(*) >= ?4`,
        )
        .bind(projectId, since, to, FLOOD_MIN_NEGATIVES),
      db.prepare(`select count(*) as n from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ${negative()}`).bind(projectId, since, to),
    ]);
    const flooding = floodingSources(counts!.results as SourceCount[], (total!.results[0] as { n: number }).n);
    return {
      cursor: null,
      counts: { touchedByEvents: events!.meta.changes, touchedByTraces: traces!.meta.changes, floodingSources: flooding.size },
      state: { flooding: Object.fromEntries(flooding) },
    };
  },
};
