/**
 * The simulation's two doors, the same ones a browser uses: the demo's `POST /api/ask` (which logs
 * the trace through the client with the server key) and the collector's `POST /v1/events` (the
 * write key, from the demo page's origin), events batched as the widget's outbox sends them.
 */

import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import { MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';

/** Wait this long for a collector's answer by default; the nightly run's calls pass their own. */
export const COLLECTOR_TIMEOUT_MS = 20_000;
/** Attempts in all for a request left unanswered or cut off. */
const ATTEMPTS = 3;

/** A collector's answer, read whole, and how many times the request was sent to get it. */
export interface CollectorAnswer {
  status: number;
  ok: boolean;
  text: string;
  attempts: number;
}

/**
 * A request to the collector that may be sent again: every call the simulation makes is
 * idempotent (reads, a night that is done stays done, the same verdict twice, events deduplicated
 * by id). Under `wrangler dev` a request now and then gets no answer for minutes while the Worker
 * answers others, or a 503 when the dev server restarted the Worker mid-request; asking again (on
 * a fresh connection, after `timeoutMs` without a whole answer) keeps a run going. The body is
 * read within the attempt: the timeout covers it too, and a body cut off is asked for again.
 */
export async function collectorFetch(url: string, init: RequestInit = {}, timeoutMs = COLLECTOR_TIMEOUT_MS): Promise<CollectorAnswer> {
  const { pathname } = new URL(url);
  for (let attempt = 1; ; attempt++) {
    let why: string;
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text();
      // 503: the dev server restarted the Worker mid-request.
      if (res.status !== 503 || attempt >= ATTEMPTS) return { status: res.status, ok: res.ok, text, attempts: attempt };
      why = `503 ${text.slice(0, 80)}`;
    } catch (err) {
      why = (err as Error).name === 'TimeoutError' ? `no whole answer in ${timeoutMs / 1000} s` : (err as Error).message;
      if (attempt >= ATTEMPTS) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${why}, ${ATTEMPTS} times`, { cause: err });
    }
    console.warn(`${init.method ?? 'GET'} ${pathname}: ${why}; asking again`);
    await new Promise((done) => setTimeout(done, 1_000));
  }
}

export interface Answer {
  traceId: string;
  answer: string;
  citations: { n: number; chunkId: string; sourceDocId: string }[];
}

export async function ask(demoUrl: string, body: { sessionId: string; query: string; turnIndex: number; regenerateOf?: string }): Promise<Answer> {
  const res = await fetch(`${demoUrl}/api/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST /api/ask answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Answer;
}

export interface EventSink {
  /** Sends one browser's events (one session, from its own address), in batches of up to 100. */
  send(events: readonly FeedbackEventInput[], ip: string): void;
  /** Resolves when every batch has been answered. */
  flush(): Promise<void>;
  /**
   * `stored`: taken by the collector, on the first sending or an earlier one of the same batch (a
   * batch sent again after no answer came back may have been stored: its events are then answered
   * `duplicate`). `duplicate`: answered so on a batch's first sending, which ids unique to each
   * event should never be.
   */
  readonly counts: { sent: number; stored: number; duplicate: number; rejected: number };
}

/** At most this many requests in flight: the collector is one local process. */
const MAX_IN_FLIGHT = 4;
/** Attempts after the first, 0.5 s, 1 s, 2 s … apart. */
const RETRIES = 5;

/**
 * Each session's events from its own client address (`CF-Connecting-IP`, which Cloudflare sets
 * in production), as each user's browser would send them, from the demo page's origin.
 */
export function eventSink(endpoint: string, writeKey: string, origin: string, timeoutMs = COLLECTOR_TIMEOUT_MS): EventSink {
  const counts = { sent: 0, stored: 0, duplicate: 0, rejected: 0 };
  const inFlight = new Set<Promise<void>>();
  const errors: string[] = [];

  /** Retries what a browser's outbox would retry (network errors, 5xx), backing off, before giving up. */
  async function post(batch: readonly FeedbackEventInput[], ip: string, attempt = 0): Promise<void> {
    let res: CollectorAnswer | undefined;
    try {
      res = await collectorFetch(
        `${endpoint}/v1/events`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${writeKey}`, origin, 'cf-connecting-ip': ip },
          body: JSON.stringify({ events: batch }),
        },
        timeoutMs,
      );
    } catch (err) {
      if (attempt >= RETRIES) throw err;
    }
    if (!res || res.status >= 500) {
      if (attempt >= RETRIES) throw new Error(`POST /v1/events answered ${res?.status}: ${res?.text.slice(0, 200)}`);
      await new Promise((done) => setTimeout(done, 500 * 2 ** attempt));
      return post(batch, ip, attempt + 1);
    }
    const body = JSON.parse(res.text) as {
      accepted?: number;
      duplicate?: number;
      rejected?: number;
      results?: { status: string; reason?: string; field?: string }[];
    };
    const sentBefore = attempt > 0 || res.attempts > 1;
    counts.sent += batch.length;
    counts.stored += (body.accepted ?? 0) + (sentBefore ? (body.duplicate ?? 0) : 0);
    if (!sentBefore) counts.duplicate += body.duplicate ?? 0;
    counts.rejected += body.rejected ?? 0;
    const bad = body.results?.find((x) => x.status === 'rejected');
    if (!res.ok && res.status !== 400) errors.push(`POST /v1/events answered ${res.status}`);
    else if (bad && errors.length < 5) errors.push(`${bad.field}: ${bad.reason}`);
  }

  const queue: { batch: FeedbackEventInput[]; ip: string }[] = [];
  function pump() {
    while (inFlight.size < MAX_IN_FLIGHT && queue.length) {
      const { batch, ip } = queue.shift()!;
      const p: Promise<void> = post(batch, ip)
        .catch((e: Error) => void errors.push(e.message))
        .finally(() => {
          inFlight.delete(p);
          pump();
        });
      inFlight.add(p);
    }
  }

  return {
    counts,
    send(events, ip) {
      for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH) queue.push({ batch: events.slice(i, i + MAX_EVENTS_PER_BATCH), ip });
      pump();
    },
    async flush() {
      while (inFlight.size || queue.length) await Promise.all(inFlight);
      if (errors.length) throw new Error(`events not stored: ${errors.splice(0).join('; ')}`);
    },
  };
}
