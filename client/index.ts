import type { BackoffOptions } from '../shared/backoff.ts';
import { uuidv7 } from '../shared/ids.ts';
import { type FeedbackEventInput, FeedbackEventSchema } from '../shared/schema/event.ts';
import { type TraceInput, TraceSchema } from '../shared/schema/trace.ts';
import { MAX_EVENTS_PER_BATCH, MAX_TRACES_PER_BATCH } from '../shared/thresholds.ts';
import { Batcher, type Outcome } from './batcher.ts';
import { callSafely } from './callback.ts';
import { checkedCallbacks, checkedConnection, checkedOptions, type FetchOption, fetchOf, MAX_TIMER_MS, numberOption } from './options.ts';

// For a backend's own embedder (a remote one on Workers), without the Node-only entry.
export type { Embedder } from '../shared/embedder.ts';
export type { FeedbackEventInput } from '../shared/schema/event.ts';
export type { TraceInput } from '../shared/schema/trace.ts';
export type { FetchOption } from './options.ts';
export { type Candidate, createReranker, type Reranked, type Reranker, type RerankerOptions } from './reranker.ts';

export interface TraceClientOptions {
  /** The collector's base URL, e.g. `http://127.0.0.1:8787`. */
  endpoint: string;
  /** The project's server key (`rfs_…`); never ship it to a browser. */
  serverKey: string;
  /** Traces (or events) per request (at most 50 traces, 100 events). */
  batchSize?: number;
  /** Longest a trace or event waits for its batch to fill. */
  flushIntervalMs?: number;
  /** Attempts per batch before what it holds is reported failed. */
  maxAttempts?: number;
  /** Retry timing. */
  backoff?: BackoffOptions;
  /** Longest wait for the collector's answer to one attempt, then retried as a network error; 0 waits however long it takes. */
  timeoutMs?: number;
  /**
   * Most requests of traces on their way at once (and as many of events): when the collector is
   * slow or down, further batches wait in memory for one of them to settle instead of each
   * starting a request of its own.
   */
  maxInFlight?: number;
  /**
   * Most bytes of traces (and as many of events) waiting in memory to be sent: while the collector
   * is down or slower than the traffic, what is logged past it is `failed` at once, told to
   * `onError`, rather than the backend's memory growing until it is killed with everything queued.
   */
  maxQueuedBytes?: number;
  /** What to send with: a fetch function (a test's), or a service binding given whole (`env.COLLECTOR`). */
  fetch?: FetchOption;
  /**
   * Told about traces and events that could not be stored, since `logTrace` and `logEvent` never
   * throw (and neither does this: what it throws, or an async one rejects with, is ignored). An event's result has its `eventId` too.
   */
  onError?: (result: TraceResult | EventResult) => void;
}

/** What became of one trace. */
export type TraceResult = { traceId: string } & Outcome;

/** What became of one event (about the trace `traceId`). */
export type EventResult = { eventId: string; traceId: string } & Outcome;

/** An event as a backend reports it: its id and time are made when it is logged unless given. */
export type BackendEvent = FeedbackEventInput extends infer E
  ? E extends FeedbackEventInput
    ? Omit<E, 'eventId' | 'clientTs'> & { eventId?: string; clientTs?: number }
    : never
  : never;

/**
 * How long `flush()` waits when given no `timeoutMs`: within a shutdown's grace period (Kubernetes
 * gives 30 s) and Workers' `waitUntil` (30 s), where all of the retries (some 75 s against a
 * collector that does not answer, longer for items held by a rate limit) would be cut off untold.
 */
export const DEFAULT_FLUSH_TIMEOUT_MS = 20_000;

const DEFAULTS = {
  batchSize: 20,
  flushIntervalMs: 1000,
  maxAttempts: 6,
  backoff: { baseMs: 500, maxMs: 30_000 },
  timeoutMs: 10_000,
  maxInFlight: 4,
  maxQueuedBytes: 64 * 2 ** 20,
};

/** The id of whatever was passed as a trace or event, for the result, even when it is not one. */
const idOf = (item: unknown, key: 'traceId' | 'eventId'): string => {
  const id = (item as Record<string, unknown> | null | undefined)?.[key];
  return typeof id === 'string' ? id : '';
};

/**
 * Sends traces, and the events a backend sees (a regenerate, a rephrase), to the collector in
 * batches, retrying network errors, timeouts, 5xx and 429 (honouring Retry-After) with jittered
 * backoff. Retries are safe: the collector deduplicates by id. What waits is kept in memory only,
 * up to `maxQueuedBytes` (what is logged past it is reported failed at once): after `maxAttempts` it is reported failed.
 */
export class TraceClient {
  private readonly traces: Batcher;
  private readonly events: Batcher;
  private readonly onError: TraceClientOptions['onError'];

  /** Throws a RangeError naming the option when one cannot work (a batch size of 0 would never send). */
  constructor(options: TraceClientOptions) {
    checkedConnection(options);
    checkedCallbacks(options);
    const opts = { ...DEFAULTS, ...options, fetch: fetchOf(options.fetch), ...checkedOptions(options, DEFAULTS) };
    this.onError = options.onError;
    this.traces = new Batcher(
      { path: 'v1/traces', name: 'trace', schema: TraceSchema, body: (items) => `[${items.join(',')}]`, maxPerBatch: MAX_TRACES_PER_BATCH },
      opts,
    );
    this.events = new Batcher(
      { path: 'v1/events', name: 'event', schema: FeedbackEventSchema, body: (items) => `{"events":[${items.join(',')}]}`, maxPerBatch: MAX_EVENTS_PER_BATCH },
      opts,
    );
    // Taken off the client (`const { logTrace } = client`, `.then(client.flush)`), they still never throw.
    this.logTrace = this.logTrace.bind(this);
    this.logEvent = this.logEvent.bind(this);
    this.flush = this.flush.bind(this);
  }

  /**
   * Queues a trace; the promise says what became of it and never rejects. A trace the collector
   * would refuse (checked against the schema of this client's version) is `rejected` at once,
   * naming its field (`trace.retrievedChunks[0].score`), and never sent.
   */
  async logTrace(trace: TraceInput): Promise<TraceResult> {
    return this.report({ traceId: idOf(trace, 'traceId'), ...(await this.traces.add(trace)) });
  }

  /**
   * Queues a feedback event the backend saw, with the server key: its `eventId` (UUIDv7) and
   * `clientTs` are made now unless given. Checked and answered as `logTrace` is (`event.detail.gapMs`).
   */
  async logEvent(event: BackendEvent): Promise<EventResult> {
    const at = Date.now();
    // `?? ` rather than a spread under the event: `eventId: undefined` given is one not given.
    const full = event && typeof event === 'object' ? { ...event, eventId: event.eventId ?? uuidv7(at), clientTs: event.clientTs ?? at } : event;
    return this.report({ eventId: idOf(full, 'eventId'), traceId: idOf(full, 'traceId'), ...(await this.events.add(full)) });
  }

  /**
   * Sends everything queued and waits for every batch in flight, and for what is logged meanwhile,
   * until nothing waits (call before shutdown, or in `ctx.waitUntil`), for `timeoutMs` at most
   * (`DEFAULT_FLUSH_TIMEOUT_MS`, 20 s, unless given; Infinity or 0 for however long the retries take):
   * what the collector has not answered by then is `failed`, told to `onError` (to be kept elsewhere
   * and logged again later, which is safe), and its requests and retries stop, so a shutdown's
   * grace period is not outlived by retries against a collector that is down.
   */
  async flush(options: { timeoutMs?: number } = {}): Promise<void> {
    const given = numberOption('timeoutMs', options?.timeoutMs, DEFAULT_FLUSH_TIMEOUT_MS, { min: 0, max: MAX_TIMER_MS, infinite: true });
    // 0 is no limit, as the client's own `timeoutMs` and createReranker's are: not giving up at once, failing all unsent.
    const timeoutMs = given === 0 ? Number.POSITIVE_INFINITY : given;
    await Promise.all([this.traces.flush(timeoutMs), this.events.flush(timeoutMs)]);
  }

  private report<R extends TraceResult | EventResult>(result: R): R {
    // The backend's own callback failing must not lose the answer, nor crash the process.
    if (result.status === 'rejected' || result.status === 'failed') callSafely(this.onError, result);
    return result;
  }
}

/** One-call convenience: `createTraceClient(opts).logTrace(trace)`. */
export const createTraceClient = (options: TraceClientOptions) => new TraceClient(options);
