/**
 * A follow-up that says the answer before it was wrong ("that's wrong", "不对": `contradictsAnswer`)
 * becomes `contradicted_by_follow_up` on that answer as the traces are stored. The collector sees
 * every turn of a conversation, whichever instance of the backend served it and in whatever order
 * the traces arrive: each batch looks again at the pushbacks of its sessions, and the event's id,
 * made from the follow-up's, stores it once.
 */
import { type SQL, sql } from 'drizzle-orm';
import { contradictsAnswer } from '../../shared/contradiction.ts';
import { sha256Hex } from '../../shared/hex.ts';
import { COLLECTOR_EVENT_ID_PREFIX } from '../../shared/schema/event.ts';
import { SIGNALS } from '../../shared/signals.ts';
import { CONTRADICTION_WINDOW_MS } from '../../shared/thresholds.ts';

export const PUSHBACK_SIGNAL = 'contradicted_by_follow_up';

/** What the event's id is made from: the follow-up's turn (a regenerate asks it again), else its trace. */
interface FollowUp {
  traceId: string;
  sessionId?: string | undefined;
  turnIndex?: number | undefined;
  query: string;
}

/**
 * The id of the event a follow-up's pushback makes, or null when it makes none. Made from its turn
 * (or its trace when it has no turn index), so a retry or a regenerate of that turn makes the same
 * id and the answer is objected to once.
 */
export async function pushbackEventId(followUp: FollowUp): Promise<string | null> {
  const { traceId, sessionId, turnIndex, query } = followUp;
  if (sessionId === undefined || !contradictsAnswer(query)) return null;
  const of = turnIndex === undefined ? `trace:${traceId}` : `turn:${sessionId}:${turnIndex}`;
  return `${COLLECTOR_EVENT_ID_PREFIX}${(await sha256Hex(of)).slice(0, 32)}`;
}

/**
 * Whether the answer `traceId` already holds a pushback from the follow-up `nextTraceId`, whoever
 * made it (the collector from the traces, or the backend that sent its own): the same objection
 * counts once.
 */
export const pushbackStored = (projectId: SQL, traceId: SQL, nextTraceId: SQL) =>
  sql`exists (select 1 from feedback_events e where e.project_id = ${projectId} and e.trace_id = ${traceId}
    and e.signal_type = ${PUSHBACK_SIGNAL} and e.detail ->> '$.nextTraceId' = ${nextTraceId})`;

/** The traces of one batch that a pushback's event may depend on: their sessions and their times. */
export interface StoredBatch {
  sessions: readonly string[];
  /** The earliest and latest `createdAt` of the batch's traces. */
  from: number;
  to: number;
}

/**
 * Stores the event of every pushback a batch may complete, once: the pushbacks of its sessions
 * within the window of its traces (the batch holds them, or the answer before them). The answer
 * before a follow-up is the latest trace of the turn just before when both have a turn index (a
 * regenerate replaced its turn's answer), within `CONTRADICTION_WINDOW_MS` either side (another
 * instance's clock may run a little ahead), else the latest trace in the window before it. An event
 * on that answer saying the same, which the backend sent itself, is not doubled.
 */
export function pushbackEvents(projectId: string, batch: StoredBatch, now: number): SQL {
  const w = CONTRADICTION_WINDOW_MS;
  // `indexed by`: without statistics SQLite would walk every trace of the project in the window by time.
  return sql`
  insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, signal_group, superseded, detail, client_ts, received_at)
  select f.project_id, f.pushback_event_id, p.trace_id, f.session_id, ${PUSHBACK_SIGNAL}, ${SIGNALS[PUSHBACK_SIGNAL].value}, null, 0,
    json_object('nextTraceId', f.trace_id, 'gapMs', max(0, f.created_at - p.created_at)), f.created_at, ${now}
  from traces f indexed by traces_session
  join traces p on p.project_id = f.project_id and p.trace_id = (
    select q.trace_id from traces q indexed by traces_session
    where q.project_id = f.project_id and q.session_id = f.session_id and q.trace_id <> f.trace_id
      and (case when q.turn_index is null or f.turn_index is null
        then q.created_at < f.created_at and q.created_at >= f.created_at - ${w}
        else q.turn_index = f.turn_index - 1 and q.created_at between f.created_at - ${w} and f.created_at + ${w} end)
    order by q.created_at desc, q.trace_id desc limit 1)
  where f.project_id = ${projectId} and f.session_id in (select value from json_each(${JSON.stringify(batch.sessions)}))
    and f.created_at between ${batch.from - w} and ${batch.to + w} and f.pushback_event_id is not null
    and not ${pushbackStored(sql`f.project_id`, sql`p.trace_id`, sql`f.trace_id`)}
  on conflict do nothing`;
}
