import * as v from 'valibot';
import { type BackoffOptions, retryAfterMs, retryDelay } from '../shared/backoff.ts';
import { listedFields } from '../shared/listed-fields.ts';
import type { BatchResult, ItemResult } from '../shared/schema/batch-result.ts';
import { joinUrl } from '../shared/url.ts';
import { type FieldErrors, faultsIn, fieldErrors, namesAny } from '../shared/validation.ts';
import { collectorError } from './collector-error.ts';
import { LOST_AFTER_DEADLINE_MS, sleep, withDeadline } from './deadline.ts';
import { networkReason } from './network-reason.ts';
import { FOLLOW_NO_REDIRECT, redirectNote } from './redirect.ts';

/**
 * What became of one item, whatever its kind. A rejected one names every field at fault in
 * `fields`, the first of them as `field` and `reason`.
 */
export type Outcome =
  | { status: 'accepted' | 'duplicate' }
  | { status: 'rejected'; field: string; reason: string; fields: FieldErrors }
  | { status: 'failed'; reason: string };

const rejected = (fields: FieldErrors): Outcome => ({ status: 'rejected', field: fields[0].field, reason: fields[0].message, fields });

/**
 * The fields of a rejected item as the collector named them, or its first alone from a collector
 * that lists none. The collector names them within the batch sent (`traces[3].query`); the caller
 * sent one item (`trace.query`).
 */
function fieldsOf(r: Extract<ItemResult, { status: 'rejected' }>, item: string): FieldErrors {
  const within = (field: string) => field.replace(/^\w+\[\d+\]/, item);
  const listed = listedFields(r.fields).map(({ field, message }) => ({ field: within(field), message }));
  return namesAny(listed) ? listed : [{ field: within(r.field), message: r.reason }];
}

/** One kind of item the collector takes in batches: traces or events. */
export interface BatchKind {
  /** The collector's path, `v1/traces`. */
  path: string;
  /** What the caller calls one item, for the fields of a refusal: `trace`. */
  name: string;
  /** The schema an item must pass to be sent (the collector's own, of this client's version). */
  schema: v.GenericSchema;
  /** The request body from the items' JSON texts. */
  body: (items: readonly string[]) => string;
  /** Most items one request may hold. */
  maxPerBatch: number;
}

export interface BatcherOptions {
  endpoint: string;
  serverKey: string;
  batchSize: number;
  flushIntervalMs: number;
  maxAttempts: number;
  backoff: BackoffOptions;
  timeoutMs: number;
  /** Most requests on their way at once; further batches wait in the queue for one to settle. */
  maxInFlight: number;
  /** Most bytes of JSON waiting in the queue: past it an item is failed when added, rather than memory growing while the collector is down. */
  maxQueuedBytes: number;
  fetch: (request: Request) => Promise<Response>;
}

interface Pending {
  /** The item as JSON when it was added: what the caller changes afterwards is not sent. */
  json: string;
  /** Its size in UTF-8, counted against `maxQueuedBytes` while it waits. */
  bytes: number;
  resolve: (outcome: Outcome) => void;
  /** Told what became of it: a lost flight's items not yet told go back to the queue. */
  settled: boolean;
}

/** One batch on its way: a flush out of time fails its items and stops its requests and retries. */
interface Flight {
  batch: Pending[];
  stop: AbortController;
  /** Told to stop, whether or not `stop` could be aborted. */
  stopped: boolean;
  /** Why its last attempt did not land, if one did not. */
  lastFailure?: string;
  /** When its current attempt, or wait before the next, is over at the latest; Infinity with no deadline. */
  stepEndsBy: number;
}

/**
 * Stops a flight's requests and retries. On Workers an AbortController another request made cannot
 * be aborted from this one (it throws): that flight ends at its next step instead, its attempt or
 * wait cut short only in its own request.
 */
function stopFlight(flight: Flight, reason: Error): void {
  flight.stopped = true;
  try {
    flight.stop.abort(reason);
  } catch {
    // Another request's: `stopped` ends it.
  }
}

/** The length of `text` in UTF-8, without encoding it: what it takes in a request. */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 2 bytes up to U+07FF, 3 beyond; each half of a surrogate pair adds 1 to its 2 units, making 4.
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** Whether one entry of an answer is the collector's word on the item at `index`. */
function isItemResult(r: Partial<Record<string, unknown>> | null | undefined, index: number): boolean {
  if (r?.index !== index) return false;
  if (r.status === 'accepted' || r.status === 'duplicate') return true;
  const refused = typeof r.field === 'string' && typeof r.reason === 'string';
  return (r.status === 'rejected' && refused) || (r.status === 'rate_limited' && refused && typeof r.retryAfter === 'number' && r.retryAfter >= 0);
}

/**
 * Whether `results` is the collector's answer to a batch of `size`: one entry per item, in batch
 * order. Anything else (`{"results":[]}` from another service at the endpoint) answers for no item
 * in it, so it is retried as any answer that is not the collector's, rather than failing or
 * accepting items on its word.
 */
const answersBatch = (results: unknown, size: number): results is ItemResult[] =>
  Array.isArray(results) && results.length === size && results.every((r, i) => isItemResult(r, i));

/**
 * Sends items to the collector in batches, retrying network errors, timeouts, 5xx and 429
 * (honouring Retry-After) with jittered backoff. Retries are safe: the collector deduplicates by
 * id. At most `maxInFlight` requests are on their way at once, so an outage does not pile up one
 * request per batch: the batches past them wait in the queue. Items wait in memory only, at most
 * `maxQueuedBytes` of them (an item past it is `failed` when added): after `maxAttempts` they are `failed`.
 */
export class Batcher {
  private queue: Pending[] = [];
  /** UTF-8 bytes of the items in `queue`. */
  private queuedBytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The queue's oldest items have waited their `flushIntervalMs` (or a flush asked): they go as soon as a request may start. */
  private due = false;
  private inFlight = new Map<Promise<void>, Flight>();
  private readonly batchSize: number;

  constructor(
    private readonly kind: BatchKind,
    private readonly opts: BatcherOptions,
  ) {
    this.batchSize = Math.min(opts.batchSize, kind.maxPerBatch);
  }

  /**
   * Queues an item as it is now; the promise says what became of it and never rejects. An item the
   * collector would refuse, or that cannot be made JSON, is `rejected` at once, its field named as
   * the caller knows it, and never sent.
   */
  add(item: unknown): Promise<Outcome> {
    return new Promise((resolve) => {
      const parsed = v.safeParse(this.kind.schema, item);
      if (!parsed.success) {
        return resolve(rejected(faultsIn(this.kind.name, fieldErrors(parsed.issues, this.kind.name, { schema: this.kind.schema, input: item }))));
      }
      let json: string;
      try {
        json = JSON.stringify(item);
      } catch (err) {
        return resolve(rejected([{ field: this.kind.name, message: `cannot be sent as JSON: ${(err as Error).message}` }]));
      }
      const bytes = utf8Bytes(json);
      // An empty queue takes any item, so one larger than the bound alone is still sent.
      if (this.queue.length > 0 && this.queuedBytes + bytes > this.opts.maxQueuedBytes) {
        return resolve({
          status: 'failed',
          reason: `not queued: ${this.queuedBytes} bytes of ${this.kind.name}s already wait for the collector (maxQueuedBytes ${this.opts.maxQueuedBytes})`,
        });
      }
      this.queuedBytes += bytes;
      const pending: Pending = {
        json,
        bytes,
        settled: false,
        resolve: (outcome) => {
          pending.settled = true;
          resolve(outcome);
        },
      };
      this.queue.push(pending);
      this.send();
    });
  }

  /**
   * Sends everything queued and waits for every batch in flight, until nothing waits: what is
   * logged while a batch is on its way is sent too, rather than left to a timer after shutdown.
   * After `timeoutMs` (Infinity: however long the retries take) it gives up: what the collector has
   * not answered is `failed`, and its requests and retries stop, so none keeps the process alive.
   */
  async flush(timeoutMs: number): Promise<void> {
    const done = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<boolean>((resolve) => {
      if (timeoutMs !== Number.POSITIVE_INFINITY) timer = setTimeout(() => resolve(true), timeoutMs);
    });
    try {
      if (await Promise.race([this.drain(done.signal).then(() => false), expired])) this.giveUp(timeoutMs);
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      // A drain given up on stops: it would otherwise send every item logged later at once, alone.
      done.abort();
    }
  }

  private async drain(stop: AbortSignal): Promise<void> {
    while (!stop.aborted && (this.queue.length > 0 || this.inFlight.size > 0)) {
      if (this.queue.length > 0) this.due = true;
      this.send();
      // Each batch that settles starts the next one waiting; one lost never settles, so it is looked for again when one would be.
      const lostBy = Math.min(...[...this.inFlight.values()].map((f) => f.stepEndsBy + LOST_AFTER_DEADLINE_MS));
      const wake = new AbortController();
      const stopped = () => wake.abort();
      stop.addEventListener('abort', stopped, { once: true });
      const settled = Promise.all(this.inFlight.keys());
      await (lostBy === Number.POSITIVE_INFINITY ? settled : Promise.race([settled, sleep(Math.max(0, lostBy - Date.now()) + 1, wake.signal)]));
      stop.removeEventListener('abort', stopped);
      wake.abort();
    }
  }

  /**
   * Takes back the batches whose attempt, or wait, ended long ago without them going on: on Workers
   * a request that ended took them with it, and they would hold their place among `maxInFlight`
   * for good. What they hold that was not answered goes first in the queue, to be sent again (safe:
   * the collector keeps one per id).
   */
  private reclaimLost(): void {
    const now = Date.now();
    for (const [p, flight] of this.inFlight) {
      if (now <= flight.stepEndsBy + LOST_AFTER_DEADLINE_MS) continue;
      this.inFlight.delete(p);
      stopFlight(flight, new Error('lost on its way'));
      const unanswered = flight.batch.filter((item) => !item.settled);
      for (const item of unanswered) this.queuedBytes += item.bytes;
      this.queue.unshift(...unanswered);
      // They have waited their time already.
      if (unanswered.length > 0) this.due = true;
    }
  }

  /** Fails what waits and what is on its way, stopping its requests: a flush ran out of time. */
  private giveUp(timeoutMs: number): void {
    const queued = this.queue.splice(0);
    this.queuedBytes = 0;
    this.due = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const reason = `not sent: flush gave up after ${timeoutMs} ms`;
    for (const item of queued) item.resolve({ status: 'failed', reason });
    for (const flight of this.inFlight.values()) {
      // Its request may yet have been stored: sending it again is safe, the collector keeps one per id.
      const last = flight.lastFailure ? `, the last attempt's ${flight.lastFailure}` : '';
      for (const item of flight.batch) item.resolve({ status: 'failed', reason: `unanswered when flush gave up after ${timeoutMs} ms${last}` });
      stopFlight(flight, new Error('flush gave up'));
    }
  }

  /**
   * Starts a request for each full batch queued, and for the rest once it is due, while fewer than
   * `maxInFlight` are on their way; what is left waits for its timer or for a request to settle.
   */
  private send(): void {
    this.reclaimLost();
    while (this.inFlight.size < this.opts.maxInFlight && (this.queue.length >= this.batchSize || (this.due && this.queue.length > 0))) {
      const batch = this.queue.splice(0, this.batchSize);
      for (const item of batch) this.queuedBytes -= item.bytes;
      const flight: Flight = { batch, stop: new AbortController(), stopped: false, stepEndsBy: Number.POSITIVE_INFINITY };
      const p = this.post(batch, flight).finally(() => {
        this.inFlight.delete(p);
        this.send();
      });
      this.inFlight.set(p, flight);
    }
    if (this.queue.length === 0) {
      this.due = false;
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
    } else if (!this.due) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.due = true;
        this.send();
      }, this.opts.flushIntervalMs);
    }
  }

  /**
   * Sends `batch` (all or part of `flight`'s) until it is answered, out of attempts, or the flight
   * is stopped. Items answered `rate_limited` (their session over the collector's limit, while the
   * rest of the batch was taken) are sent again alone after the wait asked for, as attempts of it.
   */
  private async post(batch: Pending[], flight: Flight): Promise<void> {
    const url = joinUrl(this.opts.endpoint, this.kind.path);
    const stop = flight.stop.signal;
    let reason = 'not sent';
    for (let attempt = 0; attempt < this.opts.maxAttempts; attempt++) {
      // Stopped, its items were failed already, or taken back to be sent again.
      if (flight.stopped) return;
      let retryAfter: number | undefined;
      flight.stepEndsBy = this.opts.timeoutMs > 0 ? Date.now() + this.opts.timeoutMs : Number.POSITIVE_INFINITY;
      try {
        // The answer read in full within the deadline: headers alone can come before a body that never does.
        const { res, body } = await withDeadline(
          this.opts.timeoutMs,
          async (signal) => {
            const res = await this.opts.fetch(
              new Request(url, {
                method: 'POST',
                headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.serverKey}` },
                body: this.kind.body(batch.map((b) => b.json)),
                signal,
                redirect: FOLLOW_NO_REDIRECT,
              }),
            );
            // Not JSON, or JSON's null: an answer with nothing of the collector's in it.
            const body = ((await res.json().catch(() => null)) ?? {}) as Partial<BatchResult>;
            return { res, body };
          },
          stop,
        );
        if (answersBatch(body.results, batch.length)) {
          const held = this.settle(batch, body.results);
          if (held.length === 0) return;
          batch = held.map(({ item }) => item);
          reason = `HTTP ${res.status}: ${held[0]!.result.reason}`;
          retryAfter = Math.max(...held.map(({ result }) => result.retryAfter * 1000));
        } else {
          const refusal = collectorError(body);
          // Whoever answered without the collector's words is named: a 200 from the wrong endpoint says nothing else.
          // A redirect is retried as any other server's answer (a captive portal's), but named as one.
          reason = refusal
            ? `HTTP ${res.status}: ${refusal.message}`
            : `HTTP ${res.status} from ${url}, ${redirectNote(res, url) ?? "not the collector's answer"}`;
          if (res.status === 413) {
            // Too large together: each half on its own, down to an item too large alone; one after the
            // other, so the batch still holds one request at a time of the `maxInFlight`.
            if (batch.length === 1) return batch[0]!.resolve(rejected([{ field: this.kind.name, message: reason }]));
            const half = Math.ceil(batch.length / 2);
            await this.post(batch.slice(0, half), flight);
            await this.post(batch.slice(half), flight);
            return;
          }
          // The collector refused the request itself: retrying cannot help. Any other server's answer (a
          // captive portal's page, a proxy's 407, a firewall's 403 page) is retried as a network error.
          if (refusal && !res.ok && res.status !== 429 && res.status < 500) break;
          retryAfter = retryAfterMs(res.headers.get('retry-after'));
        }
      } catch (err) {
        reason = `network: ${networkReason(err, url)}`;
      }
      flight.lastFailure = reason;
      if (attempt + 1 < this.opts.maxAttempts) {
        const wait = retryDelay(attempt, this.opts.backoff, retryAfter);
        flight.stepEndsBy = Date.now() + wait;
        await sleep(wait, stop);
      }
    }
    // Stopped, its items were failed already, or taken back to be sent again.
    if (flight.stopped) return;
    for (const p of batch) p.resolve({ status: 'failed', reason });
  }

  /** Tells each item of `batch` what the collector answered; returns those it holds for later (`rate_limited`), unsettled. */
  private settle(batch: Pending[], results: ItemResult[]): { item: Pending; result: Extract<ItemResult, { status: 'rate_limited' }> }[] {
    const held: { item: Pending; result: Extract<ItemResult, { status: 'rate_limited' }> }[] = [];
    for (const r of results) {
      const item = batch[r.index];
      if (!item) continue;
      if (r.status === 'rate_limited') held.push({ item, result: r });
      else item.resolve(r.status === 'rejected' ? rejected(fieldsOf(r, this.kind.name)) : { status: r.status });
    }
    return held;
  }
}
