import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { signalValue } from '../../shared/signal-value.ts';
import { SIGNALS } from '../../shared/signals.ts';
import { addClientDrops } from './drops.ts';
import { PUSHBACK_SIGNAL, pushbackStored } from './pushbacks.ts';
import { feedbackEvents } from './schema/index.ts';
import type { Db } from './sql/db.ts';
import { notErased } from './sql/erased-traces.ts';
import { insertJsonRows } from './sql/json-insert.ts';
import { rawBatch } from './sql/raw-batch.ts';

/** An event as stored, all but when it was stored: the write stamps that (see `insertEventRows`). */
export type EventRow = Omit<typeof feedbackEvents.$inferInsert, 'receivedAt'>;

/** Events a widget's outbox reports it dropped, counted with the batch whose first valid event carried the report. */
export interface DropReport {
  projectId: string;
  firstEventId: string;
  dropped: number;
}

/**
 * A request's drop report, keyed by its batch's first valid event (`firstEventId`), stored or held
 * back over its session's limit: whichever of the batch's events are held back when it is sent
 * again, it is the same report. Written with the rows stored, so none without them (the client then
 * sends the count again); a message queued before the key was carried is keyed by its first row.
 */
export const dropReportOf = (rows: readonly EventRow[], dropped = 0, firstEventId = rows[0]?.eventId): DropReport[] =>
  dropped > 0 && rows[0] && firstEventId ? [{ projectId: rows[0].projectId, firstEventId, dropped }] : [];

/** A project's validated events as rows ready to insert, each signal valued from the one signal table. */
export const eventRows = (projectId: string, events: readonly FeedbackEvent[], ipHash: string | null = null): EventRow[] =>
  events.map((e) => ({
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
  }));

/**
 * Stores event rows idempotently, stamped received at `now`, and returns the ids that were new.
 * The one insert of events: a request's batch (direct ingest) and a queue's batch of any projects
 * (collector/ingest-queue) both go through it. Events of a vote group (thumbs, rating) then mark
 * all but each session's latest as superseded, in the same atomic batch, so a flip never counts
 * twice and every event is still kept for audit. Drop reports are recorded in that batch too, each
 * once however often it is sent (see `addClientDrops`). An event about a trace an erasure deleted
 * (`erased_traces`) is not stored, and not returned: its sender is told it is a duplicate.
 *
 * The stamp is the write's own time, not the request's: the nightly job reads events by it and
 * looks back only a minute for writes that landed late (jobs/stages/prepare.ts, LATE_WRITE_MS).
 */
export async function insertEventRows(db: Db, rows: readonly EventRow[], now: number, drops: readonly DropReport[] = []): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  // An event about an erased answer (late from an outbox, the queue, a replay) is skipped as one stored already,
  // and so is a backend's pushback the collector already recorded from the traces (pushbacks.ts).
  const [projectId, traceId] = [sql.raw("json_extract(value, '$.projectId')"), sql.raw("json_extract(value, '$.traceId')")];
  const samePushback = pushbackStored(projectId, traceId, sql.raw("json_extract(value, '$.detail.nextTraceId')"));
  const where = sql`${notErased(projectId, traceId)} and not (json_extract(value, '$.signalType') = ${PUSHBACK_SIGNAL} and ${samePushback})`;
  const inserts = insertJsonRows(
    feedbackEvents,
    rows.map((r) => ({ ...r, receivedAt: now })),
    { returning: feedbackEvents.eventId, where },
  );
  // The vote groups each project's rows touch: one statement per project keeps its index walk (below).
  const groups = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!r.signalGroup) continue;
    const ofProject = groups.get(r.projectId) ?? new Set();
    groups.set(r.projectId, ofProject.add(JSON.stringify([r.traceId, r.sessionId, r.signalGroup])));
  }
  const dropStatements = drops.map((d) => addClientDrops(d.projectId, d.dropped, now, d.firstEventId));
  const supersedes = [...groups].map(([projectId, keys]) => supersede(projectId, [...keys]));
  const results = await rawBatch<{ event_id: string }>(db, [...dropStatements, ...inserts, ...supersedes]);
  return new Set(results.slice(dropStatements.length, dropStatements.length + inserts.length).flatMap((r) => r.map((row) => row.event_id)));
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
