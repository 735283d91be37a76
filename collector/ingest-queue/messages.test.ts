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

/** What Cloudflare counts of a `sendBatch`: each message's bytes and its ~100 bytes of metadata. */
const bytesOf = (batch: MessageSendRequest[]) => batch.reduce((sum, m) => sum + new TextEncoder().encode(JSON.stringify(m.body)).length + 100, 0);

describe('messageBatches', () => {
  it('sends at most 100 messages a call', () => {
    const batches = messageBatches(Array.from({ length: 150 }, (_, i) => row(i)));
    expect(batches.map((b) => b.length)).toEqual([100, 50]);
    expect(batches.flat().map((m) => m.body.row.eventId)).toEqual(Array.from({ length: 150 }, (_, i) => `e${i}`));
  });

  it('sends at most 256 KB a call, counting text as UTF-8 bytes', () => {
    // 60 KB each as UTF-8, 30,000 characters as a string: six fit one call by characters, not by bytes.
    const rows = Array.from({ length: 6 }, (_, i) => row(i, 'é'.repeat(30_000)));
    const batches = messageBatches(rows);
    expect(batches.length).toBeGreaterThan(1);
    for (const b of batches) expect(bytesOf(b)).toBeLessThanOrEqual(256_000);
    expect(batches.flat()).toHaveLength(6);
  });

  it('queues an event sent twice in one request once, and the drop report on the first alone', () => {
    const [batch] = messageBatches([row(1), row(1), row(2)], 4);
    expect(batch!.map((m) => [m.body.row.eventId, m.body.dropped])).toEqual([
      ['e1', 4],
      ['e2', undefined],
    ]);
  });
});
