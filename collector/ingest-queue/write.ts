import { dropReportOf, insertEventRows } from '../storage/events.ts';
import type { Db } from '../storage/sql/db.ts';
import type { QueuedEvents } from './messages.ts';

/**
 * Stores queued messages' events in one D1 batch, with the same idempotent insert as a direct
 * request, so a message written twice (delivered again, replayed) is stored once. The drop report
 * a request's batch sent rides on its first message with the event that keys it, as a direct write keys it.
 */
export async function writeQueued(db: Db, bodies: readonly QueuedEvents[]): Promise<void> {
  const rows = bodies.flatMap((b) => b.rows);
  const drops = bodies.flatMap((b) => dropReportOf(b.rows, b.dropped, b.firstEventId));
  await insertEventRows(db, rows, Date.now(), drops);
}

/** An error as kept with a message that failed, within what a row should hold. */
export const errorText = (err: unknown) => String(err).slice(0, 1_000);
