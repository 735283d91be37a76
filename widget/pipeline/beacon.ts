import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { joinUrl } from '../../shared/url.ts';
import { BATCH_ENVELOPE_BYTES } from '../defaults.ts';
import type { OutboxItem } from './outbox.ts';

const MAX_BATCH_BYTES = MAX_EVENTS_BODY_BYTES - BATCH_ENVELOPE_BYTES;
const encoder = new TextEncoder();

export const eventsUrl = (endpoint: string) => joinUrl(endpoint, 'v1/events');
/** Where an item goes: items for one destination can travel in one request. */
export const destination = (item: OutboxItem) => `${item.endpoint} ${item.writeKey}`;

/** The first item's destination and as many following items for it as fit one request (`most`: fewer events for some destinations). */
export function nextBatch(items: readonly OutboxItem[], most?: ReadonlyMap<string, number>): OutboxItem[] {
  const batch: OutboxItem[] = [];
  let bytes = 0;
  for (const item of items) {
    const to = destination(item);
    if (to !== destination(items[0]!)) continue;
    const size = encoder.encode(JSON.stringify(item.event)).length + 1;
    if (batch.length === (most?.get(to) ?? MAX_EVENTS_PER_BATCH) || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) break;
    batch.push(item);
    bytes += size;
  }
  return batch;
}

/**
 * On page hide, hands events not yet confirmed to the browser with sendBeacon (text/plain, key
 * in the body: no preflight, and it outlives the page). They stay in the outbox: if the beacon
 * is lost they go on the next visit, and if not the collector answers "duplicate". Gives back what the
 * browser took (it refuses a beacon past its quota for requests outliving the page).
 */
export function beacon(items: readonly OutboxItem[]): OutboxItem[] {
  const sent: OutboxItem[] = [];
  if (!navigator.sendBeacon) return sent;
  let rest = [...items];
  while (rest.length > 0) {
    const batch = nextBatch(rest);
    const { endpoint, writeKey } = batch[0]!;
    // One endpoint the browser cannot send to must not keep the others' events from going.
    try {
      if (navigator.sendBeacon(eventsUrl(endpoint), new Blob([JSON.stringify({ writeKey, events: batch.map((i) => i.event) })], { type: 'text/plain' })))
        sent.push(...batch);
    } catch {}
    rest = rest.filter((i) => !batch.includes(i));
  }
  return sent;
}
