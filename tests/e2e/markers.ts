/**
 * Markers for checks that something did NOT happen. Reading the collector once proves nothing
 * about an event still on its way; so the test sends a marker after the action, along the path
 * the unwanted event would take, and checks the absence once the marker is stored.
 */
import type { Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { callWidget, collector, eventually, flush, keys, newTraceId, ofType, type StoredEvent } from './helpers.ts';

/**
 * Records a marker on the trace through the widget (a copy of one character: too short to prompt),
 * sends it and waits until the collector has stored it. The outbox delivers in the order events
 * were recorded, so everything the page recorded before the marker is among the events returned.
 */
export async function eventsUpToMarker(page: Page, traceId: string): Promise<StoredEvent[]> {
  await callWidget(page, traceId, 'reportCopy', 1);
  await flush(page);
  return eventually(traceId, (ev) => {
    expect(ofType(ev, 'copy_answer').map((e) => e.detail)).toContainEqual({ chars: 1 });
    return ev;
  });
}

/** Beacon markers have trace ids of their own, starting so. */
const BEACON_MARKER = 'beacon-marker';

/** Whether a request carries a beacon marker: a route that cuts the collector off can let it through. */
export const isBeaconMarker = (request: Request) => request.postData()?.includes(`"traceId":"${BEACON_MARKER}-`) ?? false;

/**
 * Sends a marker by sendBeacon from `page`, the path a page-hide beacon takes, and waits until the
 * collector has stored it: a beacon the browser context sent before it has arrived by then.
 */
export async function beaconMarker(page: Page): Promise<void> {
  const traceId = newTraceId(BEACON_MARKER);
  const event = { eventId: crypto.randomUUID(), traceId, sessionId: traceId, signalType: 'thumbs_up', clientTs: Date.now() };
  const body = JSON.stringify({ writeKey: keys().write, events: [event] });
  const queued = await page.evaluate(({ url, body }) => navigator.sendBeacon(url, new Blob([body], { type: 'text/plain' })), {
    url: `${collector()}/v1/events`,
    body,
  });
  expect(queued).toBe(true);
  await eventually(traceId, (ev) => expect(ev.map((e) => e.eventId)).toEqual([event.eventId]));
}
