import { describe, expect, it } from 'vitest';
import type { EventRow } from '../storage/events.ts';
import { messageBatches } from './messages.ts';

const row = (i: number, text = ''): EventRow => ({
  projectId: 'p1',
  eventId: `e${i}`,
  traceId: 't1',
  sessionId: 's1',
  signalType: 'correction',
  signalValue: -1,
  signalGroup: null,
  superseded: false,
  detail: { text },
  widgetVersion: null,
  shownMs: null,
  ipHash: null,
  clientTs: 1_800_000_000_000 + i,
});

/** What Cloudflare counts of a message: its bytes and its ~100 bytes of metadata. */
const bytesOf = (m: MessageSendRequest) => new TextEncoder().encode(JSON.stringify(m.body)).length + 100;

describe('messageBatches', () => {
  it("queues a request's events as one message, not one message each (a queue takes 5,000 messages a second)", () => {
    const batches = messageBatches(Array.from({ length: 100 }, (_, i) => row(i)));
    expect(batches.map((b) => b.length)).toEqual([1]);
    expect(batches[0]![0]!.body.rows.map((r) => r.eventId)).toEqual(Array.from({ length: 100 }, (_, i) => `e${i}`));
  });

  it('keeps a message within 128 KB and a call within 256 KB, counting text as UTF-8 bytes', () => {
    // 60 KB each as UTF-8, 30,000 characters as a string: four fit a message by characters, two by bytes.
    const rows = Array.from({ length: 6 }, (_, i) => row(i, 'é'.repeat(30_000)));
    const batches = messageBatches(rows);
    const messages = batches.flat();
    expect(messages.map((m) => m.body.rows.length)).toEqual([2, 2, 2]);
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    for (const m of messages) expect(bytesOf(m)).toBeLessThanOrEqual(128_000);
    for (const b of batches) expect(b.reduce((sum, m) => sum + bytesOf(m), 0)).toBeLessThanOrEqual(256_000);
    expect(messages.flatMap((m) => m.body.rows.map((r) => r.eventId))).toEqual(rows.map((r) => r.eventId));
  });

  it('queues an event sent twice in one request once, and the drop report on the first message alone', () => {
    const rows = [row(1, 'é'.repeat(30_000)), row(1), row(2, 'é'.repeat(30_000)), row(3, 'é'.repeat(30_000))];
    const messages = messageBatches(rows, 4).flat();
    expect(messages.map((m) => [m.body.rows.map((r) => r.eventId), m.body.dropped])).toEqual([
      [['e1', 'e2'], 4],
      [['e3'], undefined],
    ]);
  });
});
