import type { EventRow } from '../storage/events.ts';

/**
 * One queued message: a request's rows as the request made them, ready to insert, and its batch's
 * drop report on the first message, with the batch's first valid event, which keys it
 * (storage/events.ts `dropReportOf`). A message per request, not per event: a queue takes 5,000
 * messages a second, which one event each would make the ceiling of ingest.
 */
export interface QueuedEvents {
  rows: EventRow[];
  dropped?: number;
  firstEventId?: string;
}

/**
 * Cloudflare Queues' limits (1 KB = 1000 bytes): one message's bytes, and one `sendBatch`'s
 * messages and bytes. Each message also carries up to about 100 bytes of metadata, which count too.
 */
const MAX_MESSAGE_BYTES = 128_000;
const MAX_BATCH_MESSAGES = 100;
const MAX_BATCH_BYTES = 256_000;
const METADATA_BYTES = 100;

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/**
 * A request's rows as `sendBatch` calls within the limits: as few messages as fit them, each row
 * once (the first of two with the same id, as the idempotent insert would keep it). Sent as JSON,
 * whose size is known here exactly. A row always fits a message: an event comes from a body of at
 * most 64 KB.
 */
export function messageBatches(rows: readonly EventRow[], dropped = 0, firstEventId?: string): MessageSendRequest<QueuedEvents>[][] {
  const seen = new Set<string>();
  const messages: QueuedEvents[] = [];
  let current: QueuedEvents | undefined;
  let bytes = 0;
  for (const row of rows) {
    if (seen.has(row.eventId)) continue;
    seen.add(row.eventId);
    // A row's bytes, and its comma, inside the message's array.
    const size = bytesOf(row) + 1;
    if (!current || bytes + size > MAX_MESSAGE_BYTES - METADATA_BYTES) {
      current = messages.length === 0 && dropped > 0 ? { rows: [], dropped, ...(firstEventId !== undefined && { firstEventId }) } : { rows: [] };
      messages.push(current);
      bytes = bytesOf(current);
    }
    current.rows.push(row);
    bytes += size;
  }
  const batches: MessageSendRequest<QueuedEvents>[][] = [];
  let batch: MessageSendRequest<QueuedEvents>[] = [];
  let batchBytes = 0;
  for (const body of messages) {
    const size = bytesOf(body) + METADATA_BYTES;
    if (batch.length === MAX_BATCH_MESSAGES || (batch.length > 0 && batchBytes + size > MAX_BATCH_BYTES)) {
      batches.push(batch);
      batch = [];
      batchBytes = 0;
    }
    batch.push({ body, contentType: 'json' });
    batchBytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
