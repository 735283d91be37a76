import type { Env } from '../env.ts';
import { keepDeadLetter } from '../storage/dead-letters.ts';
import { openDb } from '../storage/sql/db.ts';
import type { QueuedEvents } from './messages.ts';
import { errorText, writeQueued } from './write.ts';

/**
 * The consumer of the dead-letter queue, whose retention would otherwise drop what it holds. Each
 * message is written once more (what failed may have passed); one that still fails is kept in D1
 * with its error (table `dead_letters`) until an admin replays it (replay.ts) or retention purges it, without its events
 * about erased answers. Only when D1 cannot keep it either is it retried, as its writes were, and so
 * is one left with no other event: its write failed on D1 alone, and stores its drop report once D1 takes it.
 */
export async function keepDeadLetters(batch: MessageBatch<QueuedEvents>, env: Env): Promise<void> {
  const db = openDb(env.DB);
  for (const m of batch.messages) {
    // A message holds one request's rows, so one project's (messageBatches never sends one empty).
    const projectId = m.body.rows[0]?.projectId ?? '';
    const log = (fields: Record<string, unknown>) =>
      console.error(JSON.stringify({ ingest: 'dead-letter', queue: batch.queue, message: m.id, project: projectId, ...fields }));
    let error: string;
    try {
      await writeQueued(db, [m.body]);
      log({ written: m.body.rows.length });
      m.ack();
      continue;
    } catch (err) {
      error = errorText(err);
    }
    try {
      const kept = await keepDeadLetter(db, projectId, m.id, m.body, error, Date.now());
      if (kept === undefined) {
        log({ failed: error, erased: m.body.rows.length });
        m.retry();
        continue;
      }
      log({ kept, failed: error });
      m.ack();
    } catch (err) {
      log({ failed: error, notKept: errorText(err) });
      m.retry();
    }
  }
}
