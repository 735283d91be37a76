/**
 * Dead letters kept in a throwaway collector's D1 as the dead-letter queue's consumer keeps them
 * (collector/ingest-queue/dead-letters.ts), for the console's tests and screenshots: wrangler dev
 * cannot be made to fail a queued write.
 */
import { query } from '../../scripts/local-d1-sql.ts';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { signalValue } from '../../shared/signal-value.ts';
import { SIGNALS } from '../../shared/signals.ts';

/** An event as a queue message holds it: the row the consumer inserts (collector/storage/events.ts eventRows). */
const rowOf = (e: FeedbackEvent) => ({
  projectId: 'local',
  ...e,
  signalValue: signalValue(e),
  signalGroup: SIGNALS[e.signalType].group,
  superseded: false,
  widgetVersion: null,
  shownMs: null,
  ipHash: null,
});

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * Keeps two dead letters of the project `local`, ids starting with `tag`: one whose write failed
 * for a while (D1 locked) and now succeeds, a correction (`correction` its text) and three
 * citation clicks on `traceId`; one that never will (the correction without a trace id, as an
 * older version might have queued it). Answers their ids in the order a replay takes them, and
 * the first one's event ids.
 */
export async function keepDeadLetters(persistTo: string, { traceId, tag, correction }: { traceId: string; tag: string; correction: string }) {
  const event = { traceId, sessionId: `${tag}-s`, clientTs: Date.now() - 60_000 };
  const events: FeedbackEvent[] = [
    { ...event, eventId: `${tag}-e0`, signalType: 'correction', detail: { text: correction } },
    ...[1, 2, 3].map((i): FeedbackEvent => ({ ...event, eventId: `${tag}-e${i}`, signalType: 'citation_click', detail: { chunkId: `c${i}` } })),
  ];
  const writable = { rows: events.map(rowOf), dropped: 1 };
  const unwritable = { rows: [{ ...rowOf(events[0]!), eventId: `${tag}-bad`, traceId: null }] };
  const ids = [`${tag}-writable`, `${tag}-unwritable`];
  const now = Date.now();
  await query(
    `insert into dead_letters (project_id, id, dead_lettered_at, message, error, attempts) values
      ('local', ${sqlText(ids[0]!)}, ${now - 120_000}, ${sqlText(JSON.stringify(writable))}, 'Error: D1_ERROR: database is locked', 1),
      ('local', ${sqlText(ids[1]!)}, ${now - 240_000}, ${sqlText(JSON.stringify(unwritable))}, 'Error: D1_ERROR: NOT NULL constraint failed: feedback_events.trace_id: SQLITE_CONSTRAINT', 2)`,
    { persistTo },
  );
  return { ids, eventIds: events.map((e) => e.eventId) };
}
