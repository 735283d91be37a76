/**
 * What a session's row in `session_stats` counts of its answers: the sessions stage counts the
 * answers stored, retention what it purges (kept with the session), erasure recounts the sessions
 * an erased user's answers were in.
 */
import { clearlyBadSql } from './clear-scores.ts';

/** The counts of answers `t` (with their stats `s`), as `traces, scored, negative, requeried`; `bad` is the line of a clearly bad answer. */
export const sessionCountsSql = (bad: string) =>
  `count(*) as traces, count(case when s.trusted_signals > 0 then 1 end) as scored,
   count(case when s.trusted_signals > 0 and ${clearlyBadSql('s.weighted_score', bad)} then 1 end) as negative,
   count(case when s.requeried then 1 end) as requeried`;

/**
 * Statements that count the sessions `sessionsSql` selects (with the project as ?1 and its own
 * parameter as ?2) again from the answers they still hold, with what their purged answers counted,
 * and delete those left with none (a purged answer's counts name no one apart). For erasure, once
 * the user's answers went: a session others shared keeps what theirs counted, and names one of
 * them, or no one, instead of the user; its first answer's time stays only when one was purged.
 */
export function recountSessions(d1: D1Database, sessionsSql: string, projectId: string, param: string, bad: number): D1PreparedStatement[] {
  return [
    d1
      .prepare(
        `update session_stats set user_id_hash = x.user_id_hash, traces = x.traces + session_stats.purged_traces,
           scored = x.scored + session_stats.purged_scored, negative = x.negative + session_stats.purged_negative,
           requeried = x.requeried + session_stats.purged_requeried, last_at = x.last_at,
           first_at = case when session_stats.purged_traces > 0 then min(session_stats.first_at, x.first_at) else x.first_at end
         from (
           select t.session_id, max(t.user_id_hash) as user_id_hash, ${sessionCountsSql('?3')}, min(t.created_at) as first_at, max(t.created_at) as last_at
           from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where t.project_id = ?1 and t.session_id in (${sessionsSql})
           group by t.session_id
         ) x
         where session_stats.project_id = ?1 and session_stats.session_id = x.session_id`,
      )
      .bind(projectId, param, bad),
    d1
      .prepare(
        `delete from session_stats where project_id = ?1 and session_id in (${sessionsSql})
           and not exists (select 1 from traces t where t.project_id = ?1 and t.session_id = session_stats.session_id)`,
      )
      .bind(projectId, param),
  ];
}
