/**
 * What the trace view reads besides the trace, its chunks and its events (traces.ts, events.ts):
 * the nightly job's verdict on each event, the signals other turns sent here, the trace's
 * aggregate, its session's neighbouring turns and its review items.
 */

import { assessedSql, assessedUntilSql, JOIN_VERDICT, VERDICT } from './sql/verdict.ts';

export interface Assessment {
  eventId: string;
  confidence: number;
  rules: { rule: string; reason: string }[];
  attributedTraceId: string;
  attribution: { reason: string; scores: { traceId: string; score: number }[] } | null;
}

export interface AttributedEvent extends Omit<Assessment, 'eventId'> {
  eventId: string;
  /** The trace the event was given on. */
  traceId: string;
  signalType: string;
  signalValue: number | null;
  superseded: boolean;
  detail: Record<string, unknown>;
  clientTs: number;
}

export interface SessionTurn {
  traceId: string;
  turnIndex: number | null;
  query: string;
  createdAt: number;
  weightedScore: number | null;
}

/** How many turns on each side of the trace the view shows (attribution looks 3 turns back). */
export const NEIGHBOURS = 3;

const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

type RawAttributed = RawAssessment & Omit<AttributedEvent, keyof Assessment | 'detail' | 'superseded'> & { detail: string; superseded: number };
type RawAssessment = Omit<Assessment, 'rules' | 'attribution'> & { rules: string; attribution: string | null };
const fromRaw = <T extends RawAssessment>({ rules, attribution, ...r }: T) => ({
  ...r,
  rules: parse<Assessment['rules']>(rules) ?? [],
  attribution: parse<Assessment['attribution']>(attribution),
});

export async function traceContext(d1: D1Database, projectId: string, traceId: string, session: { sessionId: string; createdAt: number } | null) {
  // Events other turns attributed here always have a stored verdict.
  const ASSESSMENT = `a.event_id as eventId, a.confidence, a.rules, a.attributed_trace_id as attributedTraceId, a.attribution`;
  const TURN = `t.trace_id as traceId, t.turn_index as turnIndex, t.query, t.created_at as createdAt, s.weighted_score as weightedScore
    from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
    where t.project_id = ?1 and t.session_id = ?2`;
  const statements = [
    // Each assessed event's verdict: stored, or the base one (storage/sql/verdict.ts).
    d1
      .prepare(
        `select e.event_id as eventId, ${VERDICT.confidence} as confidence, ${VERDICT.rules} as rules, ${VERDICT.attributedTraceId} as attributedTraceId,
           ${VERDICT.attribution} as attribution
         from feedback_events e ${JOIN_VERDICT} where e.project_id = ?1 and e.trace_id = ?2 and ${assessedSql(assessedUntilSql('?1'))}`,
      )
      .bind(projectId, traceId),
    d1
      .prepare(
        `select ${ASSESSMENT}, e.trace_id as traceId, e.signal_type as signalType, e.signal_value as signalValue, e.superseded, e.detail, e.client_ts as clientTs
         from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
         where a.project_id = ?1 and a.attributed_trace_id = ?2 and a.trace_id <> ?2 order by e.client_ts, e.event_id`,
      )
      .bind(projectId, traceId),
    d1
      .prepare(
        `select score, weighted_score as weightedScore, confidence, live_signals as liveSignals, trusted_signals as trustedSignals,
           explicit_signals as explicitSignals, implicit_signals as implicitSignals, requeried
         from trace_stats where project_id = ? and trace_id = ?`,
      )
      .bind(projectId, traceId),
    d1
      .prepare(
        `select i.item_id as id, i.chunk_id as chunkId, i.status, i.verdict, i.guess from review_item_traces r
         join review_items i on i.project_id = r.project_id and i.item_id = r.item_id where r.project_id = ? and r.trace_id = ? order by i.expected_value desc`,
      )
      .bind(projectId, traceId),
  ];
  if (session) {
    statements.push(
      d1
        .prepare(`select ${TURN} and t.created_at <= ?3 order by t.created_at desc, t.trace_id desc limit ?4`)
        .bind(projectId, session.sessionId, session.createdAt, NEIGHBOURS + 1),
      d1
        .prepare(`select ${TURN} and t.created_at > ?3 order by t.created_at, t.trace_id limit ?4`)
        .bind(projectId, session.sessionId, session.createdAt, NEIGHBOURS),
    );
  }
  const [assessments, attributed, stats, items, before, after] = await d1.batch(statements);
  return {
    assessments: (assessments!.results as RawAssessment[]).map(fromRaw),
    attributedHere: (attributed!.results as RawAttributed[]).map(
      ({ detail, superseded, ...r }): AttributedEvent => ({
        ...fromRaw(r),
        detail: JSON.parse(detail) as Record<string, unknown>,
        superseded: Boolean(superseded),
      }),
    ),
    stats: (stats!.results[0] as Record<string, number | null> | undefined) ?? null,
    reviewItems: items!.results as { id: string; chunkId: string; status: string; verdict: string | null; guess: string }[],
    session: [...((before?.results ?? []) as SessionTurn[]).reverse(), ...((after?.results ?? []) as SessionTurn[])],
  };
}
