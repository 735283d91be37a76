import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_COUNT } from '../../shared/schema/counts.ts';
import { MAX_DURATION_MS } from '../../shared/schema/durations.ts';
import { type FeedbackEvent, FeedbackEventSchema } from '../../shared/schema/event.ts';
import { TYPED_TEXT } from '../../shared/schema/typed-text.ts';
import { UNCONFIRMED_KEPT } from '../defaults.ts';
import type { OutboxItem } from './outbox.ts';
import { Recorder } from './recorder.ts';

/** What the page-hide beacon was handed, and whether the browser takes it (false: its quota for beacons full). */
const beaconed = vi.hoisted(() => [] as OutboxItem[][]);
const browser = vi.hoisted(() => ({ takes: true }));
vi.mock('./beacon.ts', () => ({
  beacon: (items: OutboxItem[]) => {
    beaconed.push(items);
    return browser.takes ? items : [];
  },
}));
// IndexedDB and the network: the browser suite covers them. Here the outbox takes events, and
// nothing is ever confirmed, as when another tab delivers the shared outbox.
vi.mock('./outbox.ts', () => ({
  Outbox: class {
    enqueue() {}
  },
}));
vi.mock('./transport.ts', () => ({
  Transport: class {
    schedule() {}
    added() {}
  },
}));

const ctx = { traceId: 't', sessionId: 's', endpoint: 'https://collector.example', writeKey: 'rfw_k' };

beforeEach(() => {
  beaconed.length = 0;
  browser.takes = true;
  vi.stubGlobal('addEventListener', () => undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('Recorder', () => {
  it('hands the page-hide beacon the newest unconfirmed events, newest first, however many the page records', () => {
    const recorder = new Recorder({}, () => undefined);
    const events: FeedbackEvent[] = [];
    for (let i = 0; i < UNCONFIRMED_KEPT + 20; i++) events.push(recorder.record(ctx, 'copy_answer', { chars: i }, i, true)!);
    recorder.beacon();
    expect(beaconed[0]!.map((item) => item.id)).toEqual(
      events
        .slice(20)
        .reverse()
        .map((e) => e.eventId),
    );
  });

  it('beacons each event once per hide (`visibilitychange`, then `pagehide`), and again once the page was visible', () => {
    const recorder = new Recorder({}, () => undefined);
    const first = recorder.record(ctx, 'copy_answer', { chars: 1 }, 1, true)!;
    recorder.beacon();
    // Recorded as the page goes (a dwell the hide ends): only that one goes with the next beacon.
    const second = recorder.record(ctx, 'copy_answer', { chars: 2 }, 2, true)!;
    recorder.beacon();
    recorder.beacon();
    const ids = () => beaconed.map((items) => items.map((item) => item.id));
    expect(ids()).toEqual([[first.eventId], [second.eventId], []]);
    recorder.visible();
    recorder.beacon();
    expect(ids()).toEqual([[first.eventId], [second.eventId], [], [second.eventId, first.eventId]]);
  });

  it('beacons again at the next hide what the browser refused', () => {
    const recorder = new Recorder({}, () => undefined);
    const event = recorder.record(ctx, 'copy_answer', { chars: 1 }, 1, true)!;
    browser.takes = false;
    recorder.beacon();
    browser.takes = true;
    recorder.beacon();
    recorder.beacon();
    expect(beaconed.map((items) => items.map((item) => item.id))).toEqual([[event.eventId], [event.eventId], []]);
  });

  it("redacts what a person typed, within its field's limit, and leaves ids that look like PII alone", () => {
    const recorder = new Recorder({}, () => undefined);
    for (const chunkId of ['c1@refunds.md', '4111111111111111', 'docs/10.0.0.1.md']) {
      expect(recorder.record(ctx, 'citation_click', { chunkId }, Date.now(), true)!.detail).toEqual({ chunkId });
    }
    // A correction at its field's limit: redaction may lengthen it, but what is sent stays within.
    const text = `mail a@b.co ${'x'.repeat(3988)}`;
    const sent = recorder.record(ctx, 'correction', { text, source: 'ask jo@example.com' }, Date.now(), true)!.detail as { text: string; source: string };
    expect(sent.text.startsWith('mail [EMAIL] xxx')).toBe(true);
    expect(sent.text.length).toBe(TYPED_TEXT.correction.text);
    expect(sent.source).toBe('ask [EMAIL]');
    // A placeholder the limit falls inside goes whole, as the collector cuts it: half of one would read as typed.
    const straddles = recorder.record(ctx, 'correction', { text: `${'x'.repeat(3995)} a@b.co` }, Date.now(), true)!.detail as { text: string };
    expect(straddles.text).toBe(`${'x'.repeat(3995)} `);
    // Shorter than the limit, nothing typed is lost to the longer placeholder, and no character is cut in half.
    expect(recorder.record(ctx, 'correction', { text: 'Ask a@b.co about it 👍' }, Date.now(), true)!.detail).toEqual({ text: 'Ask [EMAIL] about it 👍' });
    const atLimit = recorder.record(ctx, 'correction', { text: `a@b.co ${'x'.repeat(3991)}👍` }, Date.now(), true)!;
    expect(v.safeParse(FeedbackEventSchema, atLimit).issues).toBeUndefined();
    // A control character inside an address would hide it from the patterns: it goes first, in the browser.
    expect(recorder.record(ctx, 'correction', { text: 'Mail jo\u0000@example.com or jo@exa\u009bmple.com' }, Date.now(), true)!.detail).toEqual({
      text: 'Mail [EMAIL] or [EMAIL]',
    });
  });

  it('sends durations as the collector takes them: whole milliseconds, at most a day', () => {
    const recorder = new Recorder({}, () => undefined);
    // An answer shown at a fractional time (answered-at from Python's time.time() * 1000), regenerated two days later.
    const shownAt = Date.now() - 2 * 86_400_000 - 0.25;
    const event = recorder.record({ ...ctx, shownAt }, 'regenerate', { gapMs: Date.now() - shownAt }, Date.now(), true)!;
    expect(event.detail).toEqual({ gapMs: MAX_DURATION_MS });
    expect(event.shownMs).toBe(MAX_DURATION_MS);
    expect(v.safeParse(FeedbackEventSchema, event).issues).toBeUndefined();
    expect(recorder.record(ctx, 'answer_dwell', { ms: 1500.6 }, Date.now(), true)!.detail).toEqual({ ms: 1501 });
  });

  it('sends a count of characters as the collector takes it: at most MAX_COUNT', () => {
    const recorder = new Recorder({}, () => undefined);
    const event = recorder.record(ctx, 'copy_answer', { chars: MAX_COUNT * 3 }, Date.now(), true)!;
    expect(event.detail).toEqual({ chars: MAX_COUNT });
    expect(v.safeParse(FeedbackEventSchema, event).issues).toBeUndefined();
  });
});
