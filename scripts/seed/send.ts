import { setTimeout as sleep } from 'node:timers/promises';
import { retryAfterMs } from '../../shared/backoff.ts';
import { MAX_EVENTS_PER_BATCH, MAX_TRACES_PER_BATCH } from '../../shared/thresholds.ts';
import { collectorJson, fetchCollector } from '../cli.ts';
import { simulate } from './traffic.ts';

export interface SeedOptions {
  endpoint: string;
  /** The project's server key: it writes traces and, as a backend reporting them, their events. */
  serverKey: string;
  sessions?: number;
  seed?: number;
}

/** Times one batch is sent while the collector's rate limit holds it back, each after the wait it asks for. */
const RATE_LIMITED_TRIES = 10;

/** Sends one batch; answers how many of its items the collector held already (by their ids). */
async function post(url: string, key: string, body: unknown): Promise<number> {
  const init = { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
  for (let tries = 1; ; tries++) {
    const res = await fetchCollector(url, init);
    const text = await res.text();
    // A large seed outruns the collector's rate limits (60,000 items a minute per key): the batch
    // goes again after the wait asked for, whole (what was taken of it is kept once, by its ids).
    if (res.status === 429 && tries < RATE_LIMITED_TRIES) {
      await sleep(retryAfterMs(res.headers.get('retry-after')) ?? 1000);
      continue;
    }
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text}`);
    // A batch answers 200 when only some of its items were refused: the seed must not lose any unseen.
    const { rejected, duplicate } = collectorJson<{ rejected: number; duplicate: number }>(res, text, `POST ${new URL(url).pathname}`);
    if (rejected) throw new Error(`${url} refused ${rejected} item(s): ${text}`);
    return duplicate;
  }
}

export interface Seeded {
  traces: number;
  events: number;
  /** Of those sent, what the project held already: an earlier seed of the same sessions and seed sent the same ids. */
  stored: { traces: number; events: number };
}

/** Sends the simulated traffic; answers how much was sent, and how much of it was there already. */
export async function seed({ endpoint, serverKey, sessions, seed: randomSeed }: SeedOptions): Promise<Seeded> {
  const { traces, events } = simulate({ sessions, seed: randomSeed });
  const stored = { traces: 0, events: 0 };
  for (let i = 0; i < traces.length; i += MAX_TRACES_PER_BATCH)
    stored.traces += await post(`${endpoint}/v1/traces`, serverKey, traces.slice(i, i + MAX_TRACES_PER_BATCH));
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH)
    stored.events += await post(`${endpoint}/v1/events`, serverKey, { events: events.slice(i, i + MAX_EVENTS_PER_BATCH) });
  return { traces: traces.length, events: events.length, stored };
}
