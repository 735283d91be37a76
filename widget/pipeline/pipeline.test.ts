import { describe, expect, it } from 'vitest';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { REMEMBERED_SUBJECTS, REPEAT_WINDOW_MS, SESSION_EVENTS_PER_MIN } from '../defaults.ts';
import { nextBatch } from './beacon.ts';
import { ClientLimiter } from './limiter.ts';
import type { OutboxItem } from './outbox.ts';

const item = (i: number, endpoint = 'https://c.example', text = ''): OutboxItem => ({
  id: `e${i}`,
  endpoint,
  writeKey: 'rfw_k',
  event: { eventId: `e${i}`, traceId: 't', sessionId: 's', clientTs: 1, signalType: 'correction', detail: { text } } as FeedbackEvent,
});

describe('nextBatch', () => {
  it('takes at most a batch of events for the first destination, in order', () => {
    const items = [item(0), item(1, 'https://other.example'), ...Array.from({ length: 150 }, (_, i) => item(i + 2))];
    const batch = nextBatch(items);
    expect(batch).toHaveLength(MAX_EVENTS_PER_BATCH);
    expect(batch.every((b) => b.endpoint === 'https://c.example')).toBe(true);
    expect(batch[0]!.id).toBe('e0');
    expect(batch[1]!.id).toBe('e2');
  });

  it('keeps a batch under the 64 KB body limit, and always sends at least one event', () => {
    const big = Array.from({ length: 40 }, (_, i) => item(i, undefined, 'x'.repeat(3_000)));
    const batch = nextBatch(big);
    expect(JSON.stringify({ writeKey: 'rfw_k', events: batch.map((b) => b.event) }).length).toBeLessThan(MAX_EVENTS_BODY_BYTES);
    expect(batch.length).toBeGreaterThan(10);
    expect(nextBatch([item(0, undefined, 'y'.repeat(70_000))])).toHaveLength(1);
    expect(nextBatch([])).toEqual([]);
  });
});

describe('ClientLimiter', () => {
  it('suppresses the same event as the last one about its trace within the double-click window', () => {
    const l = new ClientLimiter();
    expect(l.allow('s', 't', 'vote-up', 0)).toBe(true);
    expect(l.allow('s', 't', 'vote-up', REPEAT_WINDOW_MS - 1)).toBe(false);
    expect(l.allow('s', 'other-trace', 'vote-up', 10)).toBe(true);
    expect(l.allow('s', 't', 'vote-down', 10)).toBe(true);
    expect(l.allow('s', 't', 'vote-down', REPEAT_WINDOW_MS + 11)).toBe(true);
  });

  it('passes up, down and up again within the window: each is a change of mind', () => {
    const l = new ClientLimiter();
    expect([0, 300, 600].map((at, i) => l.allow('s', 't', i % 2 ? 'thumbs_down' : 'thumbs_up', at, true))).toEqual([true, true, true]);
  });

  it("compares what a person did with the person's last event about the answer, whatever the page recorded in between", () => {
    const l = new ClientLimiter();
    // A large copy shows a prompt (recorded by the page) about the same answer; the copy's double is still a double.
    expect(l.allow('s', 't', 'copy_answer', 0, true)).toBe(true);
    expect(l.allow('s', 't', 'prompt_shown', 0, false)).toBe(true);
    expect(l.allow('s', 't', 'copy_answer', 200, true)).toBe(false);
  });

  it('forgets the answer used longest ago, not the one just used', () => {
    const l = new ClientLimiter();
    expect(l.allow('s', 'old', 'copy', 0, true)).toBe(true);
    for (let i = 1; i < REMEMBERED_SUBJECTS; i++) expect(l.allow('s', `t${i}`, 'x', 0, true)).toBe(true);
    expect(l.allow('s', 'old', 'copy2', 10_000, true)).toBe(true);
    expect(l.allow('s', 'new', 'dwell', 10_100, true)).toBe(true); // one over: the first remembered goes
    expect(l.allow('s', 'old', 'copy2', 10_200, true)).toBe(false);
  });

  it('limits a session per minute, and only that session', () => {
    const l = new ClientLimiter();
    for (let i = 0; i < SESSION_EVENTS_PER_MIN; i++) expect(l.allow('flood', 't', `e${i}`, 0)).toBe(true);
    expect(l.allow('flood', 't', 'one-more', 0)).toBe(false);
    expect(l.allow('calm', 't', 'e0', 0)).toBe(true);
    expect(l.allow('flood', 't', 'later', 60_000)).toBe(true);
  });

  it("meters only what the page records by itself: a person's vote passes a spent session, once", () => {
    const l = new ClientLimiter();
    for (let i = 0; i < SESSION_EVENTS_PER_MIN; i++) expect(l.allow('busy', `t${i}`, 'dwell', 0)).toBe(true);
    expect(l.allow('busy', 't', 'bounce', 0)).toBe(false);
    expect(l.allow('busy', 't', 'vote-up', 0, true)).toBe(true);
    expect(l.allow('busy', 't', 'vote-up', 1, true)).toBe(false);
  });
});
