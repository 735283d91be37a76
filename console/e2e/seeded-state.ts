/**
 * The state most console test files start from: a collector after the seed's traffic and tonight's
 * run, made once by the browser suite's global setup and copied into each file's own collector.
 */
import { type CollectorState, keepState, type LocalCollector, type LocalCollectorOptions, startLocalCollector } from '../../scripts/local-collector.ts';
import { seed } from '../../scripts/seed/send.ts';

/** The tests call the API from the same address as the browser: the per-IP limit is lifted. */
export const CONSOLE_VARS = { RATE_LIMIT_IP_PER_MIN: '100000' };

/**
 * fetch, tried once more when the connection was dropped under it: undici may reuse a kept-alive
 * connection the server has just closed. Only for requests that are safe to repeat.
 */
export async function fetchAgain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
}

/** The console's test collectors: the seed's traffic, then whatever a file adds, then tonight's run. */
export async function startSeededCollector(options: LocalCollectorOptions, prepare: (c: LocalCollector) => Promise<void>): Promise<LocalCollector> {
  const collector = await startLocalCollector({ ...options, vars: CONSOLE_VARS });
  try {
    await seed({ endpoint: collector.url, serverKey: collector.keys.server, sessions: 60, seed: 7 });
    await prepare(collector);
    const res = await fetchAgain(`${collector.url}/v1/admin/nightly`, { method: 'POST', headers: { authorization: `Bearer ${collector.keys.admin}` } });
    if (!res.ok) throw new Error(`the night's run answered ${res.status}: ${await res.text()}`);
    return collector;
  } catch (err) {
    await collector.stop();
    throw err;
  }
}

/** The seeded collector's state with nothing added: for the files that add nothing of their own. */
export async function seededState(): Promise<CollectorState> {
  return keepState(await startSeededCollector({}, async () => {}));
}
