import { SIGNALS, type SignalType } from '../../../shared/signals.ts';

/**
 * An event's verdict (the noise filter's and the multi-turn attribution's), as SQL over
 * `feedback_events e` and `event_assessments a`. The nightly job stores a row only where a noise
 * rule or the cross-check fired (so the confidence differs from the signal's base) or the
 * attribution weighed other turns; a missing row is the base verdict: no rules, the signal's base
 * confidence (`assessTraceEvents` with no rule), counted for its own trace, no attribution. Most
 * events are plain, and writing a row for each was most of what the job wrote.
 *
 * An event without a row counts as assessed once a run's assess stage covered its arrival
 * (received at or before that run's window end): one that arrived since is left out, as a
 * verdict not yet written was. A write stamped inside a window that landed after its run had read
 * it is taken with the base verdict until the next run judges it (prepare's LATE_WRITE_MS).
 */

/** A signal's base confidence by its type, as SQL: the verdict of an event no rule changed. */
export const baseConfidenceSql = (e = 'e') =>
  `(case ${e}.signal_type ${(Object.keys(SIGNALS) as SignalType[])
    .map((t) => `when '${t}' then ${Math.round(SIGNALS[t].confidence * 1000) / 1000}`)
    .join(' ')} end)`;

/** The stored verdict of event `e`, if any, as `a`. */
export const JOIN_VERDICT = 'left join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id';

/** The effective verdict's fields of `e` joined by JOIN_VERDICT. */
export const VERDICT = {
  confidence: `coalesce(a.confidence, ${baseConfidenceSql('e')})`,
  rules: `coalesce(a.rules, '[]')`,
  attributedTraceId: 'coalesce(a.attributed_trace_id, e.trace_id)',
  attribution: 'a.attribution',
} as const;

/** Whether `e` (joined by JOIN_VERDICT) is assessed, given where assessment reached (`until`, SQL). */
export const assessedSql = (until: string) => `(a.event_id is not null or e.received_at <= ${until})`;

/** The key a run's state carries once its assess stage covered the whole window. */
export const ASSESSED_STATE = 'assessed';

/**
 * Where assessment reached for a project (`projectId`, SQL), for readers outside the nightly job:
 * the window end of the latest run that is done or past its assess stage (0 before any).
 * The job's own stages after assess use their run's window end.
 */
export const assessedUntilSql = (projectId: string) =>
  `(select coalesce(max(window_to), 0) from loop_runs where project_id = ${projectId} and (status = 'done' or state ->> '$.${ASSESSED_STATE}'))`;

/**
 * The assessed events counted for some traces, with their verdicts as `e` and `a`, as a union of
 * two selects: each trace's own events that stay with it (no row, or a row keeping them there), then
 * other traces' events attributed to it (always stored, on the index of moved verdicts). `from`
 * lists the traces (joins allowed) with `?1` the project; `traceId` names a trace in it; `columns`
 * and `where` are applied in both selects.
 */
export function attributedEventsSql({
  from,
  traceId,
  columns,
  until,
  where = 'true',
}: {
  from: string;
  traceId: string;
  columns: string;
  until: string;
  where?: string;
}): string {
  return `select ${columns} from ${from}
      cross join feedback_events e on e.project_id = ?1 and e.trace_id = ${traceId} ${JOIN_VERDICT}
      where (a.event_id is null and e.received_at <= ${until} or a.attributed_trace_id = a.trace_id) and (${where})
    union all
    select ${columns} from ${from}
      cross join event_assessments a on a.project_id = ?1 and a.attributed_trace_id = ${traceId}
      cross join feedback_events e on e.project_id = ?1 and e.event_id = a.event_id
      where a.attributed_trace_id <> a.trace_id and (${where})`;
}

/** The chunk event `e` names in its detail (a click, a read, a copy, a wrong-source flag), on its index. */
export const EVENT_CHUNK = `json_extract(e.detail, '$.chunkId')`;
/** The condition of that index: only events naming a chunk are on it. */
export const NAMES_CHUNK = `json_type(e.detail, '$.chunkId') = 'text'`;
