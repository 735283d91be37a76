import { backoffDelay, retryAfterMs, retryDelay } from '../../shared/backoff.ts';
import type { ItemResult } from '../../shared/schema/batch-result.ts';
import { MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { MAX_TIMER_MS, OTHER_TAB_RECHECK_MS } from '../defaults.ts';
import { timeoutSignal } from '../timeout.ts';
import { destination, eventsUrl, nextBatch } from './beacon.ts';
import type { Outbox, OutboxItem } from './outbox.ts';
import type { TransportOptions } from './transport-options.ts';
import type { Warn } from './warn.ts';

const LOCK = 'rag-feedback:flush';
/** Item statuses of events the collector took: stored now, or before. */
const TAKEN: unknown[] = ['accepted', 'duplicate'];
/** Item statuses that end an event's delivery: taken, or refused for good. */
const SETTLED = [...TAKEN, 'rejected'];
/** Set once the page is denied Web Locks (a sandboxed frame, the site's storage blocked): it drains without one from then on. */
let denied: unknown;

/**
 * What became of a batch. A number: nothing was stored or refused, and it goes again after at
 * least that many ms (0: its backoff alone). Undefined: too large, it goes again at once, smaller.
 * Otherwise it is answered: whether the collector took some event of it, and with it the drop
 * report (once, however often the batch is sent); the ids it held back (their session over its
 * rate limit), which stay in the outbox while the rest are settled; and how long they wait (the
 * 429's Retry-After).
 */
type Outcome = number | undefined | [took: boolean, held: string[], wait: number];

/**
 * Delivers the outbox: batches by count and size, one flush at a time per tab and one tab at a
 * time (Web Locks), jittered backoff per destination that honours Retry-After, and the collector's 4xx drops what
 * it names instead of retrying forever (another server's answer is retried). Delivery is at-least-once; the collector dedupes by event id.
 */
export class Transport {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires; Infinity while none is set. */
  private timerAt = Infinity;
  /**
   * Backoff per destination (endpoint and key), so that a collector that cannot be reached, such as
   * a retired endpoint whose events are still in the outbox, holds back no other's events.
   */
  private readonly backoffs = new Map<string, [attempt: number, notBefore: number]>();
  /** Most events per batch for a destination that answered a batch too large (413), as the page lives. */
  private readonly most = new Map<string, number>();
  private flushing: Promise<void> | undefined;
  /** Events added since the last flush began (those before it went with it, or with another tab's). */
  private queued = 0;
  /** Flushes failed in a row (the outbox or the lock manager failing): each waits longer for the next. */
  private failures = 0;
  /** Told which events are settled (stored, duplicate, or dropped as bad). */
  onSettled: (ids: readonly string[]) => void = () => {};

  constructor(
    private readonly outbox: Outbox,
    /** Read when used: the page may set them after the pipeline started. */
    private readonly opts: () => TransportOptions,
    private readonly warn: Warn,
  ) {}

  /** Flushes after `delayMs` (destinations backing off wait for their turn). */
  schedule(delayMs = this.opts().flushDelayMs): void {
    const at = Date.now() + delayMs;
    if (this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timerAt = Infinity;
        void this.flush(false);
        // Browsers fire a wait over 2^31-1 ms at once: a longer one is cut, and the flush waits again for what is not due.
      },
      Math.min(at - Date.now(), MAX_TIMER_MS),
    );
  }

  /** An event was added to the outbox: a full batch goes at once, fewer wait for the rest of the interaction. */
  added(): void {
    this.schedule(++this.queued < MAX_EVENTS_PER_BATCH ? undefined : 0);
  }

  /**
   * Sends everything in the outbox that can be sent now; never rejects. `now` (the page asks, or the
   * browser is back online): every destination now, its backoff started over.
   */
  flush(now = true): Promise<void> {
    if (now) this.backoffs.clear();
    return (this.flushing ??= this.drainAlone()
      .then(
        () => {
          this.failures = 0;
        },
        (err) => {
          this.warn('flush failed', err);
          this.schedule(backoffDelay(this.failures++, this.opts().backoff));
        },
      )
      .finally(() => {
        this.flushing = undefined;
        // Events added while it ran, after it read the outbox, may not have gone with it.
        if (this.queued) this.schedule();
      }));
  }

  /** Drains the outbox unless another tab is at it; without a lock where the page has no Web Locks (an insecure context) or is denied them. */
  private async drainAlone(): Promise<void> {
    let asked: unknown;
    if (navigator.locks && !denied)
      try {
        return await navigator.locks.request(LOCK, { ifAvailable: true }, async (lock) => {
          asked = 1;
          if (lock) return this.drain();
          this.schedule(OTHER_TAB_RECHECK_MS); // another tab is sending (our events too, from the shared outbox)
        });
      } catch (err) {
        // The drain holding the lock failed, or the request did otherwise than by a denial (an
        // InvalidStateError: the document is not fully active): the flush failed, and is retried.
        if (asked || (err as DOMException).name !== 'SecurityError') throw err;
        denied = 1;
      }
    return this.drain();
  }

  private async drain(): Promise<void> {
    // Counted from the drain that reads the outbox: a flush asked for while it runs joins it.
    this.queued = 0;
    await this.outbox.settled();
    const now = Date.now();
    const waits = (item: OutboxItem) => (this.backoffs.get(destination(item))?.[1] ?? 0) > now;
    for (;;) {
      if (navigator.onLine === false) return; // the `online` event flushes
      const batch = nextBatch(await this.outbox.peek(MAX_EVENTS_PER_BATCH, waits), this.most);
      if (batch.length === 0) break;
      const to = destination(batch[0]!);
      const dropped = await this.outbox.dropped();
      // Whatever goes wrong with one destination (an answer it could not read) backs off that one alone.
      const outcome = await this.send(batch, dropped).catch((err) => {
        this.warn('not sent, will retry', err);
        return 0;
      });
      if (outcome === undefined) continue;
      if (typeof outcome === 'number') {
        this.backOff(to, outcome);
        continue;
      }
      const [took, held, wait] = outcome;
      this.backoffs.delete(to);
      // What its rate limit held back goes again after the wait it asked (the collector is reachable: no longer). A batch
      // of which nothing was taken (refused whole, too large alone) makes its destination wait too: refusing every batch,
      // a proxy or a key the collector does not know would otherwise drain the outbox at once.
      if (held.length || !took) this.backOff(to, wait);
      const ids = batch.map((i) => i.id).filter((id) => !held.includes(id));
      // Drops reported only with the event the collector keeps them under, taken: a batch it refused whole reports none.
      await this.outbox.remove(ids, took ? dropped : 0).catch(this.warn);
      this.onSettled(ids);
    }
    // Each destination backing off is tried again in its turn; one that was due had nothing left to send.
    for (const [to, [, notBefore]] of this.backoffs) notBefore > now ? this.schedule(notBefore - Date.now()) : this.backoffs.delete(to);
  }

  /** Holds a destination back for its backoff, or longer when the collector asked (`ms`). */
  private backOff(to: string, ms: number): void {
    const [attempt = 0] = this.backoffs.get(to) ?? [];
    this.backoffs.set(to, [attempt + 1, Date.now() + retryDelay(attempt, this.opts().backoff, ms)]);
  }

  private async send(batch: OutboxItem[], dropped: number): Promise<Outcome> {
    const { endpoint, writeKey } = batch[0]!;
    const { timeoutMs } = this.opts();
    // A network error rejects: retried after the backoff.
    const res = await fetch(eventsUrl(endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${writeKey}` },
      body: JSON.stringify({ events: batch.map((i) => i.event), ...(dropped > 0 && { dropped }) }),
      credentials: 'omit',
      // A proxy that never answers would hold the flush, and every event after it, for good.
      signal: timeoutSignal(timeoutMs),
    });
    const wait = retryAfterMs(res.headers.get('retry-after')) ?? 0;
    if (res.status >= 500) return wait;
    const body = (await res.json().catch(() => 0)) as { results?: unknown; error?: { code?: unknown } } | null;
    // The collector answers one result per event sent, in order; or, refusing the batch whole, with its error.
    const results = Array.isArray(body?.results) && body.results.length === batch.length ? (body.results as Partial<ItemResult>[]) : undefined;
    if (!results) {
      // Too large, whoever says so (a proxy may take less than the collector's 64 KB): this destination gets
      // batches half the size from then on; a single event refused alone is dropped, as no retry could send it.
      if (res.status === 413 && batch.length > 1) return void this.most.set(destination(batch[0]!), batch.length >> 1);
      const code = body?.error?.code;
      // Not the collector's answer (`null`, `{"results": []}` from another server, a captive portal's page, a proxy's or a
      // firewall's, a gateway's JSON with a numeric code), a 429 for the batch whole, or an origin the project does not
      // allow yet (a setting its admin fixes, as for an origin no project allows, which CORS refuses before any key is
      // read): nothing was stored or refused, and the batch goes again.
      if (res.status !== 413 && (res.ok || typeof code !== 'string' || res.status === 429 || code === 'origin_not_allowed')) {
        this.warn('not delivered, will retry', res.status, body);
        return wait;
      }
      this.warn(`batch of ${batch.length} dropped: HTTP ${res.status}`, body);
      return [false, [], wait];
    }
    for (const r of results) if (r?.status === 'rejected') this.warn(`event dropped: ${r.field}: ${r.reason}`);
    // The results settle what they answer; what they hold back (its session over its limit, a 429), or leave unread, stays.
    const held = batch.filter((_, i) => !SETTLED.includes(results[i]?.status)).map((i) => i.id);
    // Results that settle nothing answer nothing: the batch backs off as after any failure. The collector keeps a drop
    // count under the batch's first event it did not reject: while that one is held back, the count goes again with it.
    return held.length < batch.length ? [TAKEN.includes(results.find((r) => r?.status !== 'rejected')?.status), held, wait] : wait;
  }
}
