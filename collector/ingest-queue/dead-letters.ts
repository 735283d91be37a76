import type { Env } from '../env.ts';
import { keepDeadLetter } from '../storage/dead-letters.ts';
import { dropReportOf } from '../storage/events.ts';
import { openDb } from '../storage/sql/db.ts';
import { erasedOf } from '../storage/sql/erased-traces.ts';
import type { QueuedEvents } from './messages.ts';
import { errorText, writeQueued } from './write.ts';

/**
 * The message without its events about answers an erasure deleted (`erased_traces`), which its
 * write would have skipped: an erasure takes them out of the dead letters kept before it, and one
 * kept after it must not hold them either. Its drop report keeps the key its write gives it.
 */
async function withoutErased(d1: D1Database, projectId: string, body: QueuedEvents): Promise<QueuedEvents> {
  const erased = await erasedOf(
    d1,
    projectId,
    body.rows.map((r) => r.traceId),
  );
  if (erased.size === 0) return body;
  const [drop] = dropReportOf(body.rows, body.dropped, body.firstEventId);
  return { ...body, rows: body.rows.filter((r) => !erased.has(r.traceId)), ...(drop && { firstEventId: drop.firstEventId }) };
}

/**
 * The consumer of the dead-letter queue, whose retention would otherwise drop what it holds. Each
 * message is written once more (what failed may have passed); one that still fails is kept in D1
 * with its error (table `dead_letters`) until an admin replays it (replay.ts), without its events
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
      const kept = await withoutErased(env.DB, projectId, m.body);
      if (kept.rows.length === 0) {
        log({ failed: error, erased: m.body.rows.length });
        m.retry();
        continue;
      }
      await keepDeadLetter(db, projectId, m.id, kept, error, Date.now());
      log({ kept: kept.rows.length, failed: error });
      m.ack();
    } catch (err) {
      log({ failed: error, notKept: errorText(err) });
      m.retry();
    }
  }
}
