/**
 * Writing a trace's aggregate (`trace_stats`): the nightly job's assess stage, and erasure for the
 * answers whose events had been attributed to an erased user's answer.
 */
import { SIGNALS, type SignalType } from '../../shared/signals.ts';
import { LOW_CONFIDENCE } from '../loop/noise.ts';
import { attributedEventsSql, VERDICT } from './sql/verdict.ts';

const typesOf = (kind: 'explicit' | 'implicit') =>
  (Object.keys(SIGNALS) as SignalType[])
    .filter((t) => SIGNALS[t].kind === kind)
    .map((t) => `'${t}'`)
    .join(', ');

/**
 * Decimals a weighted score keeps: without rounding, one lone signal's value times its confidence
 * over that confidence can come out a hair below the value (-0.30000000000000004), and a lone
 * bounce at -0.3 would count as clearly bad, below `badTraceScore`.
 */
export const WEIGHTED_SCORE_DECIMALS = 9;

/** A row written again keeps whether its chunks have yet to count it (set on its first write: `retrievals_pending`). */
export const TRACE_STATS_CONFLICT = `on conflict (project_id, trace_id) do update set query_key = excluded.query_key, score = excluded.score, weighted_score = excluded.weighted_score,
  live_signals = excluded.live_signals, explicit_signals = excluded.explicit_signals, implicit_signals = excluded.implicit_signals,
  trusted_signals = excluded.trusted_signals, confidence = excluded.confidence, requeried = excluded.requeried, updated_at = excluded.updated_at`;

/** The traces to recompute as a JSON list of `{ traceId, queryKey }`, bound as `?3`. */
export const AFFECTED_LIST = `select value ->> 'traceId' as trace_id, value ->> 'queryKey' as query_key from json_each(?3)`;

/**
 * Recomputes each affected trace's aggregate from every event attributed to it, assessed up to
 * `until` (a time, or a SQL value). `affected` selects `trace_id, query_key` with `?1` the project
 * and, when given, `?3` bound to `list`. Live means not superseded by a later vote; scored, live
 * with a value (the signal counts); trusted, scored at or above LOW_CONFIDENCE.
 */
export function traceStatsUpsert(
  db: D1Database,
  projectId: string,
  now: number,
  { affected = AFFECTED_LIST, list, until }: { affected?: string; list?: string; until: number | string },
): D1PreparedStatement {
  const live = 'e.superseded = 0';
  const scored = `${live} and e.signal_value is not null`;
  const trusted = `${scored} and e.confidence >= ${LOW_CONFIDENCE}`;
  const counted = attributedEventsSql({
    from: 'affected x',
    traceId: 'x.trace_id',
    columns: `x.trace_id, e.signal_type, e.signal_value, e.superseded, ${VERDICT.confidence} as confidence`,
    until: String(until),
  });
  return db
    .prepare(
      `with affected as (${affected})
       insert into trace_stats (project_id, trace_id, query_key, created_at, knowledge_base, intent, model, score, weighted_score, live_signals,
         explicit_signals, implicit_signals, trusted_signals, confidence, requeried, retrievals_pending, updated_at)
       select ?1, t.trace_id, k.query_key, t.created_at, t.knowledge_base, t.intent, t.model,
         avg(case when ${live} then e.signal_value end),
         round(sum(case when ${trusted} then e.signal_value * e.confidence end) / sum(case when ${trusted} then e.confidence end), ${WEIGHTED_SCORE_DECIMALS}),
         count(case when ${scored} then 1 end),
         count(case when ${scored} and e.signal_type in (${typesOf('explicit')}) then 1 end),
         count(case when ${scored} and e.signal_type in (${typesOf('implicit')}) then 1 end),
         count(case when ${trusted} then 1 end),
         avg(case when ${scored} then e.confidence end),
         count(case when e.signal_type = 'rephrase_within_session' and e.confidence >= ${LOW_CONFIDENCE} then 1 end) > 0,
         1, ?2
       from affected k
       cross join traces t on t.project_id = ?1 and t.trace_id = k.trace_id
       left join (${counted}) e on e.trace_id = t.trace_id
       where true
       group by t.trace_id
       ${TRACE_STATS_CONFLICT}`,
    )
    .bind(projectId, now, ...(list === undefined ? [] : [list]));
}
