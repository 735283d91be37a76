import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { signalValue } from '../../shared/signal-value.ts';
import { SIGNALS } from '../../shared/signals.ts';
import { addClientDrops } from './drops.ts';
import { feedbackEvents } from './schema/index.ts';
import type { Db } from './sql/db.ts';
import { insertJsonRows } from './sql/json-insert.ts';
import { rawBatch } from './sql/raw-batch.ts';

export interface EventBatchContext {
  /** The sender's hashed address, when a browser sent the batch. */
  ipHash?: string | null;
  /** Events the sender's outbox reports it dropped, counted with the batch. */
  dropped?: number;
}

/**
 * Stores validated events idempotently and returns the ids that were new. Events of a vote
 * group (thumbs, rating) then mark all but each session's latest as superseded, in the same
 * atomic batch, so a flip never counts twice and every event is still kept for audit. A drop
 * report is recorded in that batch too, once however often it is sent (see `addClientDrops`).
 */
export async function insertEvents(
  db: Db,
  projectId: string,
  events: readonly FeedbackEvent[],
  now: number,
  { ipHash = null, dropped = 0 }: EventBatchContext = {},
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const rows = events.map((e) => ({
    projectId,
    eventId: e.eventId,
    traceId: e.traceId,
    sessionId: e.sessionId,
    signalType: e.signalType,
    signalValue: signalValue(e),
    signalGroup: SIGNALS[e.signalType].group,
    superseded: false,
    detail: e.detail,
    widgetVersion: e.widgetVersion ?? null,
    shownMs: e.shownMs ?? null,
    ipHash,
    clientTs: e.clientTs,
    receivedAt: now,
  }));
  // A batch is at most 64 KB, so it always fits one statement.
  const [insert] = insertJsonRows(feedbackEvents, rows, { returning: feedbackEvents.eventId });
  const grouped = [...new Set(rows.filter((r) => r.signalGroup).map((r) => JSON.stringify([r.traceId, r.sessionId, r.signalGroup])))];
  const drops = dropped ? [addClientDrops(projectId, dropped, now, rows[0]!.eventId)] : [];
  const results = await rawBatch<{ event_id: string }>(db, [...drops, insert!, ...(grouped.length ? [supersede(projectId, grouped)] : [])]);
  return new Set(results[drops.length]!.map((r) => r.event_id));
}

/**
 * Marks every grouped event superseded except the latest (client time, then id) of its group.
 * `trace_id in (…)` comes first so SQLite walks the (project_id, trace_id) index, not the table.
 */
const supersede = (projectId: string, groups: string[]) => {
  const json = `[${groups.join(',')}]`;
  return sql`
  update feedback_events set superseded = (event_id <> (
    select g.event_id from feedback_events g
    where g.project_id = feedback_events.project_id and g.trace_id = feedback_events.trace_id
      and g.session_id = feedback_events.session_id and g.signal_group = feedback_events.signal_group
    order by g.client_ts desc, g.event_id desc limit 1))
  where project_id = ${projectId}
    and trace_id in (select json_extract(value, '$[0]') from json_each(${json}))
    and (trace_id, session_id, signal_group) in (
      select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(${json}))`;
};

/** The columns an admin reads: all but the client-address hash, which only the noise filter uses. */
const { ipHash, ...shownColumns } = getTableColumns(feedbackEvents);

/** Every event of a trace, oldest first, as stored. */
export const eventsOfTrace = (db: Db, projectId: string, traceId: string) =>
  db
    .select(shownColumns)
    .from(feedbackEvents)
    .where(and(eq(feedbackEvents.projectId, projectId), eq(feedbackEvents.traceId, traceId)))
    .orderBy(asc(feedbackEvents.clientTs), asc(feedbackEvents.eventId));
