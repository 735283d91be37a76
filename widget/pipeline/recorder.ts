import { uuidv7 } from '../../shared/ids.ts';
import { keptText } from '../../shared/kept-text.ts';
import { redactPII } from '../../shared/redact.ts';
import { remember } from '../../shared/remember.ts';
import { COUNT_FIELDS, MAX_COUNT } from '../../shared/schema/counts.ts';
import { DURATION_FIELDS, MAX_DURATION_MS } from '../../shared/schema/durations.ts';
import type { EventDetail, FeedbackEvent } from '../../shared/schema/event.ts';
import { TYPED_TEXT } from '../../shared/schema/typed-text.ts';
import type { SignalType } from '../../shared/signals.ts';
import { VERSION as WIDGET_VERSION } from '../../shared/version.ts';
import { UNCONFIRMED_KEPT } from '../defaults.ts';
import { beacon } from './beacon.ts';
import { ClientLimiter } from './limiter.ts';
import { Outbox, type OutboxItem } from './outbox.ts';
import { Transport } from './transport.ts';
import { transportOptions } from './transport-options.ts';
import type { Warn } from './warn.ts';

/** Where an element's events go and what they are about. */
export interface RecordContext {
  traceId: string;
  sessionId: string;
  endpoint: string;
  writeKey: string;
  /** When the element's answer was shown, for events about it. */
  shownAt?: number;
}

/**
 * The page's options the pipeline reads (`RagFeedback.configure`'s object itself): the cap and delivery timing when
 * used, so that a `configure` after the recorder was made still counts; the outbox's name once, as its database opens.
 */
export interface PageOptions {
  /** IndexedDB database name. */
  outboxName?: string;
  /** Most events kept in the outbox (anything but a positive whole number keeps the default). */
  outboxCap?: unknown;
  /** Delivery timing, filled with the defaults. */
  transport?: unknown;
}

/** A whole number from 0 to `max`, as the collector takes durations and counts. */
const wholeUpTo = (max: number, x: number) => Math.min(max, Math.max(0, Math.round(x)));

/**
 * A detail as the collector takes it: what a person typed loses its control characters and PII and stays within its
 * field's limit (`[EMAIL]` is longer than `a@b.co`); durations and counts are whole numbers up to
 * the most taken; ids pass unchanged.
 */
const tidyDetail = (signalType: SignalType, detail: object): object => {
  const typed: Record<string, number> = TYPED_TEXT[signalType as keyof typeof TYPED_TEXT] ?? {};
  return Object.fromEntries(
    Object.entries(detail).map(([k, v]) => [
      k,
      typed[k]
        ? keptText(v, typed[k], redactPII)
        : DURATION_FIELDS.includes(k)
          ? wholeUpTo(MAX_DURATION_MS, v)
          : COUNT_FIELDS.includes(k)
            ? wholeUpTo(MAX_COUNT, v)
            : v,
    ]),
  );
};

/**
 * The pipeline, in order: an id at creation, PII redaction, the rate limiter, the IndexedDB
 * outbox, then batched delivery.
 */
export class Recorder {
  private readonly limiter = new ClientLimiter();
  /** Recorded on this page and not yet confirmed, the newest UNCONFIRMED_KEPT: what a page-hide beacon carries. */
  private readonly unconfirmed = new Map<string, OutboxItem>();
  /** Beaconed since the page was last visible. */
  private readonly beaconed = new Set<OutboxItem>();
  private readonly outbox: Outbox;
  /** Delivery: `flush()` sends what waits now. */
  readonly transport: Transport;

  /** `warn`: debug-only logging, passed in so this lazily loaded part shares no module with the first load. */
  constructor(page: PageOptions, warn: Warn) {
    this.outbox = new Outbox(page.outboxName, () => page.outboxCap, warn);
    this.transport = new Transport(this.outbox, () => transportOptions(page.transport), warn);
    this.transport.onSettled = (ids) => {
      for (const id of ids) this.unconfirmed.delete(id);
    };
    addEventListener('online', () => this.transport.flush());
    this.transport.schedule(0); // events left by earlier visits, possibly by tabs long closed
  }

  /**
   * Records one event that happened at `at`; undefined if the limiter refused it (a double click,
   * or a flood of what the page recorded by itself, not `byPerson`).
   */
  record<K extends SignalType>(
    ctx: RecordContext,
    signalType: K,
    detail: EventDetail<K>,
    at: number,
    byPerson?: boolean,
    eventId = uuidv7(at),
  ): FeedbackEvent | undefined {
    const clean = tidyDetail(signalType, detail);
    if (!this.limiter.allow(ctx.sessionId, ctx.traceId, `${signalType}|${JSON.stringify(clean)}`, at, byPerson)) return undefined;
    const event = {
      eventId,
      traceId: ctx.traceId,
      sessionId: ctx.sessionId,
      signalType,
      detail: clean,
      clientTs: at,
      widgetVersion: WIDGET_VERSION,
      // Rounded: an `answered-at` in fractional milliseconds (Python's time.time() * 1000) is still one instant.
      ...(ctx.shownAt && { shownMs: wholeUpTo(MAX_DURATION_MS, at - ctx.shownAt) }),
    } as FeedbackEvent;
    const item: OutboxItem = { id: event.eventId, endpoint: ctx.endpoint, writeKey: ctx.writeKey, event };
    remember(this.unconfirmed, item.id, item, UNCONFIRMED_KEPT);
    this.outbox.enqueue(item);
    this.transport.added();
    return event;
  }

  /** Events waiting in the outbox, across tabs. */
  async pending(): Promise<number> {
    await this.outbox.settled();
    return this.outbox.count();
  }

  /**
   * Page hidden: beacon what this page recorded and has not seen confirmed, nor beaconed since it was
   * last visible (a page that goes fires both `visibilitychange` and `pagehide`: each event goes once).
   */
  beacon(): void {
    const items = [...this.unconfirmed.values()].filter((i) => !this.beaconed.has(i));
    // Newest first: the oldest are the likeliest to have gone already (another tab sends them too). What the
    // browser refused (its quota for beacons full) goes again at the next hide, `pagehide` after `visibilitychange`.
    for (const i of beacon(items.reverse())) this.beaconed.add(i);
  }

  /** The page is visible again: its next hide beacons what is still not confirmed. */
  visible(): void {
    this.beaconed.clear();
  }
}
