import type { Env } from '../env.ts';
import { ApiError } from '../errors.ts';
import type { EventRow } from '../storage/events.ts';
import { readVar } from '../worker-vars.ts';
import { messageBatches } from './messages.ts';

/** Whether POST /v1/events queues its events (`EVENTS_INGEST = "queue"`) rather than writing them to D1 itself. */
export const queuesEvents = (env: Env) => readVar(env, 'EVENTS_INGEST') === 'queue';

/** Seconds a client waits before sending a batch again when the queue refused it. */
const RETRY_AFTER_S = 5;

/**
 * Sends a request's rows to the ingest queue and returns the ids it took: every one, as the queue
 * holds them now. A duplicate is found only by the consumer's idempotent insert. If the queue
 * refuses any part, the request is answered 503 so the client sends the whole batch again: parts
 * already queued are then inserted once all the same.
 */
export async function enqueueEvents(queue: Queue<unknown>, rows: readonly EventRow[], dropped = 0, firstEventId?: string): Promise<Set<string>> {
  try {
    for (const batch of messageBatches(rows, dropped, firstEventId)) await queue.sendBatch(batch);
  } catch (err) {
    console.error(JSON.stringify({ ingest: 'queue', events: rows.length, failed: String(err) }));
    throw new ApiError(503, {
      code: 'queue_unavailable',
      message: `Events could not be queued; send them again in ${RETRY_AFTER_S} s`,
      headers: { 'Retry-After': String(RETRY_AFTER_S) },
    });
  }
  return new Set(rows.map((r) => r.eventId));
}
