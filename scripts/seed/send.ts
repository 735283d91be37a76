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

async function post(url: string, key: string, body: unknown): Promise<void> {
  const res = await fetchCollector(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text}`);
  // A batch answers 200 when only some of its items were refused: the seed must not lose any unseen.
  const { rejected } = collectorJson<{ rejected: number }>(res, text, `POST ${new URL(url).pathname}`);
  if (rejected) throw new Error(`${url} refused ${rejected} item(s): ${text}`);
}

/** Sends the simulated traffic; answers how much was sent. */
export async function seed({ endpoint, serverKey, sessions, seed: randomSeed }: SeedOptions): Promise<{ traces: number; events: number }> {
  const { traces, events } = simulate({ sessions, seed: randomSeed });
  for (let i = 0; i < traces.length; i += MAX_TRACES_PER_BATCH) await post(`${endpoint}/v1/traces`, serverKey, traces.slice(i, i + MAX_TRACES_PER_BATCH));
  for (let i = 0; i < events.length; i += MAX_EVENTS_PER_BATCH)
    await post(`${endpoint}/v1/events`, serverKey, { events: events.slice(i, i + MAX_EVENTS_PER_BATCH) });
  return { traces: traces.length, events: events.length };
}
