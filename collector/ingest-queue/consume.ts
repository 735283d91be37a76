import type { Env } from '../env.ts';
import { dropReportOf, insertEventRows } from '../storage/events.ts';
import { openDb } from '../storage/sql/db.ts';
import type { QueuedEvents } from './messages.ts';

/**
 * The Worker's `queue` handler: a batch of queued events in one D1 batch, with the same idempotent
 * insert as a direct request, so a message delivered twice is stored once. If the write fails the
 * whole batch is retried (wrangler.toml: `max_retries`, `retry_delay`), and only after the last
 * retry do its messages go to the dead-letter queue. Consuming the dead-letter queue with this same
 * handler stores them once fixed.
 */
export async function consumeEvents(batch: MessageBatch<QueuedEvents>, env: Env): Promise<void> {
  const rows = batch.messages.flatMap((m) => m.body.rows);
  // The drop report a request's batch sent rides on its first message, keyed as a direct write keys it.
  const drops = batch.messages.flatMap((m) => dropReportOf(m.body.rows, m.body.dropped));
  try {
    await insertEventRows(openDb(env.DB), rows, Date.now(), drops);
    batch.ackAll();
  } catch (err) {
    const attempts = Math.max(...batch.messages.map((m) => m.attempts));
    console.error(
      JSON.stringify({ ingest: 'consume', queue: batch.queue, messages: batch.messages.length, events: rows.length, attempts, failed: String(err) }),
    );
    batch.retryAll();
  }
}
