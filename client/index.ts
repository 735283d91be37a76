import * as v from 'valibot';
import { type BackoffOptions, backoffDelay, retryAfterMs } from '../shared/backoff.ts';
import type { BatchResult, ItemResult } from '../shared/schema/batch-result.ts';
import { type TraceInput, TraceSchema } from '../shared/schema/trace.ts';
import { MAX_TRACES_PER_BATCH } from '../shared/thresholds.ts';
import { joinUrl } from '../shared/url.ts';
import { firstFieldError } from '../shared/validation.ts';
import { checkedOptions } from './options.ts';

export type { TraceInput } from '../shared/schema/trace.ts';
export { type Candidate, createReranker, type Reranked, type Reranker, type RerankerOptions } from './reranker.ts';

export interface TraceClientOptions {
  /** The collector's base URL, e.g. `http://127.0.0.1:8787`. */
  endpoint: string;
  /** The project's server key (`rfs_…`); never ship it to a browser. */
  serverKey: string;
  /** Traces per request (at most 50). */
  batchSize?: number;
  /** Longest a trace waits for its batch to fill. */
  flushIntervalMs?: number;
  /** Attempts per batch before its traces are reported failed. */
  maxAttempts?: number;
  /** Retry timing. */
  backoff?: BackoffOptions;
  /** Longest wait for the collector's answer to one attempt, then retried as a network error. */
  timeoutMs?: number;
  /** The fetch to use (a service binding's, or a test's). */
  fetch?: (request: Request) => Promise<Response>;
  /** Told about traces that could not be stored, since `logTrace` never throws (and neither does this: what it throws is ignored). */
  onError?: (result: TraceResult) => void;
}

/** What became of one trace. */
export type TraceResult =
  | { traceId: string; status: 'accepted' | 'duplicate' }
  | { traceId: string; status: 'rejected'; field: string; reason: string }
  | { traceId: string; status: 'failed'; reason: string };

interface Pending {
  trace: TraceInput;
  resolve: (result: TraceResult) => void;
}

const DEFAULTS = { batchSize: 20, flushIntervalMs: 1000, maxAttempts: 6, backoff: { baseMs: 500, maxMs: 30_000 }, timeoutMs: 10_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The id of whatever was passed as a trace, for the result, even when it is not one. */
const traceIdOf = (trace: unknown): string => {
  const id = (trace as { traceId?: unknown } | null)?.traceId;
  return typeof id === 'string' ? id : '';
};

/**
 * Sends traces to the collector in batches, retrying network errors, timeouts, 5xx and 429
 * (honouring Retry-After) with jittered backoff. Retries are safe: the collector deduplicates by
 * trace id. Traces wait in memory only: after `maxAttempts` they are reported failed.
 */
export class TraceClient {
  private queue: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = new Set<Promise<void>>();
  private readonly opts: Required<Omit<TraceClientOptions, 'onError'>> & Pick<TraceClientOptions, 'onError'>;

  /** Throws a RangeError naming the option when one cannot work (a batch size of 0 would never send). */
  constructor(options: TraceClientOptions) {
    const checked = checkedOptions(options, DEFAULTS);
    this.opts = { ...DEFAULTS, fetch: (r) => fetch(r), ...options, ...checked, batchSize: Math.min(checked.batchSize, MAX_TRACES_PER_BATCH) };
  }

  /**
   * Queues a trace; the promise says what became of it and never rejects. A trace the collector
   * would refuse (checked against the schema of this client's version) is `rejected` at once,
   * naming its field (`trace.retrievedChunks[0].score`), and never sent.
   */
  logTrace(trace: TraceInput): Promise<TraceResult> {
    return new Promise((resolve) => {
      const parsed = v.safeParse(TraceSchema, trace);
      if (!parsed.success) {
        const { field, message } = firstFieldError(parsed.issues, 'trace');
        return this.report({ trace, resolve }, { traceId: traceIdOf(trace), status: 'rejected', field, reason: message });
      }
      this.queue.push({ trace, resolve });
      if (this.queue.length >= this.opts.batchSize) this.send();
      else this.timer ??= setTimeout(() => this.send(), this.opts.flushIntervalMs);
    });
  }

  /** Sends everything queued and waits for every batch in flight (call before shutdown, or in `ctx.waitUntil`). */
  async flush(): Promise<void> {
    while (this.queue.length > 0) this.send();
    await Promise.all(this.inFlight);
  }

  private send(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue.splice(0, this.opts.batchSize);
    if (batch.length === 0) return;
    const p = this.deliver(batch).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
    if (this.queue.length > 0) this.timer = setTimeout(() => this.send(), this.opts.flushIntervalMs);
  }

  /** Sends what can be sent as JSON; a trace that cannot is rejected alone rather than failing its batch. */
  private async deliver(batch: Pending[]): Promise<void> {
    const sendable: { p: Pending; json: string }[] = [];
    for (const p of batch) {
      try {
        sendable.push({ p, json: JSON.stringify(p.trace) });
      } catch (err) {
        this.report(p, { traceId: p.trace.traceId, status: 'rejected', field: 'trace', reason: `cannot be sent as JSON: ${(err as Error).message}` });
      }
    }
    if (sendable.length) await this.post(sendable);
  }

  private async post(batch: { p: Pending; json: string }[]): Promise<void> {
    let reason = 'not sent';
    for (let attempt = 0; attempt < this.opts.maxAttempts; attempt++) {
      let wait = backoffDelay(attempt, this.opts.backoff);
      try {
        const res = await this.opts.fetch(
          new Request(joinUrl(this.opts.endpoint, 'v1/traces'), {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.serverKey}` },
            body: `[${batch.map((b) => b.json).join(',')}]`,
            signal: this.opts.timeoutMs > 0 ? AbortSignal.timeout(this.opts.timeoutMs) : undefined,
          }),
        );
        const body = (await res.json().catch(() => ({}))) as Partial<BatchResult> & { error?: { message: string; field?: string } };
        if (body.results) return this.settle(batch, body.results);
        reason = `HTTP ${res.status}: ${body.error?.message ?? res.statusText}`;
        if (res.status === 413) {
          // Too large together: each half on its own, down to a trace too large alone.
          if (batch.length === 1) {
            const p = batch[0]!.p;
            return this.report(p, { traceId: p.trace.traceId, status: 'rejected', field: 'trace', reason });
          }
          const half = Math.ceil(batch.length / 2);
          await Promise.all([this.post(batch.slice(0, half)), this.post(batch.slice(half))]);
          return;
        }
        // A 2xx that is not the collector's answer (a captive portal's page) is retried as a network error.
        if (!res.ok && res.status !== 429 && res.status < 500) break; // the request itself is wrong: retrying cannot help
        wait = Math.max(wait, retryAfterMs(res.headers.get('retry-after') ?? undefined) ?? 0);
      } catch (err) {
        reason = `network: ${(err as Error).message}`;
      }
      if (attempt + 1 < this.opts.maxAttempts) await sleep(wait);
    }
    for (const { p } of batch) this.report(p, { traceId: p.trace.traceId, status: 'failed', reason });
  }

  private settle(batch: { p: Pending }[], results: ItemResult[]): void {
    for (const r of results) {
      const p = batch[r.index]?.p;
      if (!p) continue;
      this.report(
        p,
        r.status === 'rejected'
          ? // The collector names the field within the batch sent (`traces[3].query`); the caller sent one trace.
            { traceId: p.trace.traceId, status: 'rejected', field: r.field.replace(/^traces\[\d+\]/, 'trace'), reason: r.reason }
          : { traceId: p.trace.traceId, status: r.status },
      );
    }
  }

  private report(p: Pending, result: TraceResult): void {
    try {
      if (result.status === 'rejected' || result.status === 'failed') this.opts.onError?.(result);
    } catch {
      // The backend's own callback failing must not lose the answer, nor crash the process.
    }
    p.resolve(result);
  }
}

/** One-call convenience: `createTraceClient(opts).logTrace(trace)`. */
export const createTraceClient = (options: TraceClientOptions) => new TraceClient(options);
