import type { Env } from '../env.ts';
import { openDb } from '../storage/sql/db.ts';
import type { QueuedEvents } from './messages.ts';
import { errorText, writeQueued } from './write.ts';

/**
 * The Worker's consumer of `rag-feedback-events`: a batch of queued events in one D1 batch. If
 * that write fails, each message is written on its own, acked once written, and only those that
 * fail again are retried (wrangler.toml: `max_retries`, `retry_delay`): one message that cannot
 * be written (say, a row queued by an older version that the schema now refuses) holds back none
 * of the others, and only it reaches the dead-letter queue after its last retry (dead-letters.ts).
 */
export async function consumeEvents(batch: MessageBatch<QueuedEvents>, env: Env): Promise<void> {
  const db = openDb(env.DB);
  const log = (fields: Record<string, unknown>) => console.error(JSON.stringify({ ingest: 'consume', queue: batch.queue, ...fields }));
  try {
    await writeQueued(
      db,
      batch.messages.map((m) => m.body),
    );
    batch.ackAll();
    return;
  } catch (err) {
    const attempts = Math.max(...batch.messages.map((m) => m.attempts));
    log({ messages: batch.messages.length, attempts, failed: errorText(err) });
    // A message alone has just failed on its own.
    if (batch.messages.length === 1) return batch.retryAll();
  }
  for (const m of batch.messages) {
    try {
      await writeQueued(db, [m.body]);
      m.ack();
    } catch (err) {
      log({ message: m.id, attempts: m.attempts, failed: errorText(err) });
      m.retry();
    }
  }
}
