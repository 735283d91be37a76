import { FLOOD_MIN_NEGATIVES, floodingSources, NEGATIVE_EXPLICIT, type SourceCount } from '../../loop/noise.ts';
import { utcDaySql } from '../../storage/sql/utc-day.ts';
import type { Stage } from './stage.ts';

/** How far back the flooding rule counts a source's negatives, beyond the run's window. */
export const FLOOD_LOOKBACK_MS = 24 * 3_600_000;

const TOUCHED_KEY = { chunk: 'c.chunk_id', session: 't.session_id', day: utcDaySql('t.created_at') };
const TOUCHED_JOIN = {
  chunk: 'join trace_chunks c on c.project_id = l.project_id and c.trace_id = l.key',
  session: 'join traces t on t.project_id = l.project_id and t.trace_id = l.key',
  day: 'join traces t on t.project_id = l.project_id and t.trace_id = l.key',
};

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
    const [events, traces, , , , counts, total] = await db.batch([
      db
        .prepare(
          `insert or ignore into loop_touched (project_id, night, kind, key) select distinct ?1, ?2, 'trace', trace_id from feedback_events where project_id = ?1 and received_at > ?3 and received_at <= ?4`,
        )
        .bind(projectId, night, from, to),
      db
        .prepare(
          `insert or ignore into loop_touched (project_id, night, kind, key) select ?1, ?2, 'trace', trace_id from traces where project_id = ?1 and received_at > ?3 and received_at <= ?4`,
        )
        .bind(projectId, night, from, to),
      // The chunks, sessions and days of those traces have aggregates to recompute.
      ...(['chunk', 'session', 'day'] as const).map((kind) =>
        db
          .prepare(
            `insert or ignore into loop_touched (project_id, night, kind, key)
             select ?1, ?2, '${kind}', ${TOUCHED_KEY[kind]} from loop_touched l ${TOUCHED_JOIN[kind]}
             where l.project_id = ?1 and l.night = ?2 and l.kind = 'trace' and ${TOUCHED_KEY[kind]} is not null`,
          )
          .bind(projectId, night),
      ),
      db
        .prepare(
          `select 'session' as kind, session_id as key, count(*) as negatives, max(client_ts) - min(client_ts) as spanMs
             from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ${negative()}
             group by session_id having count(*) >= ?4
           union all
           select 'user', t.user_id_hash, count(*), max(e.client_ts) - min(e.client_ts)
             from feedback_events e join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
             where e.project_id = ?1 and e.received_at > ?2 and e.received_at <= ?3 and t.user_id_hash is not null and ${negative('e.')}
             group by t.user_id_hash having count(*) >= ?4
           union all
           select 'ip', ip_hash, count(*), max(client_ts) - min(client_ts)
             from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ip_hash is not null and ${negative()}
             group by ip_hash having count(*) >= ?4`,
        )
        .bind(projectId, since, to, FLOOD_MIN_NEGATIVES),
      db
        .prepare(`select count(*) as n from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ${negative()}`)
        .bind(projectId, since, to),
    ]);
    const flooding = floodingSources(counts!.results as SourceCount[], (total!.results[0] as { n: number }).n);
    return {
      cursor: null,
      counts: { touchedByEvents: events!.meta.changes, touchedByTraces: traces!.meta.changes, floodingSources: flooding.size },
      state: { flooding: Object.fromEntries(flooding) },
    };
  },
};
