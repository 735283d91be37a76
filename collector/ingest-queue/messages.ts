import type { EventRow } from '../storage/events.ts';

/**
 * One queued event: its row as the request made it, ready to insert, and the drop report of its
 * request's batch on the batch's first event (storage/drops.ts keys a report by that event).
 */
export interface QueuedEvent {
  row: EventRow;
  dropped?: number;
}

/**
 * Cloudflare Queues' limits on one `sendBatch` (1 KB = 1000 bytes): its messages, and their bytes.
 * Each message also carries up to about 100 bytes of metadata, which count too.
 */
const MAX_BATCH_MESSAGES = 100;
const MAX_BATCH_BYTES = 256_000;
const METADATA_BYTES = 100;

const encoder = new TextEncoder();

/**
 * A request's rows as `sendBatch` calls within the limits, one message per event, the first of
 * two with the same id alone (as the idempotent insert would keep it). Sent as JSON, whose size
 * is known here exactly. A message always fits: an event comes from a body of at most 64 KB, and
 * a request's batch (100 events, 64 KB) fits one call; the split keeps that true if those grow.
 */
export function messageBatches(rows: readonly EventRow[], dropped = 0): MessageSendRequest<QueuedEvent>[][] {
  const seen = new Set<string>();
  const batches: MessageSendRequest<QueuedEvent>[][] = [];
  let batch: MessageSendRequest<QueuedEvent>[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (seen.has(row.eventId)) continue;
    const body: QueuedEvent = seen.size === 0 && dropped > 0 ? { row, dropped } : { row };
    seen.add(row.eventId);
    const size = encoder.encode(JSON.stringify(body)).length + METADATA_BYTES;
    if (batch.length === MAX_BATCH_MESSAGES || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: 'json' });
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
