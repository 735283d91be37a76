/**
 * Whether the demo's feedback reaches the collector, as its trace client finds when it sends: the
 * page shows what to check while it does not (`GET /api/delivery`), and nothing once a trace is
 * stored again.
 */
import { collectorError } from '../../client/collector-error.ts';

export interface Delivery {
  /**
   * The trace client's fetch: each attempt that fails is told at once, not only once its retries
   * are spent (some 15 s against a collector that is down, over a minute against one that hangs),
   * and each that stores a trace too.
   */
  fetch: (request: Request) => Promise<Response>;
  /** What became of a trace: one failed without an attempt failing is told too. */
  settled: (outcome: { status: string; reason?: string }) => void;
  /** What the page says while feedback does not reach the collector; null while it does, or before anything was sent. */
  problem: () => string | null;
}

/** Whether a collector's answer to a batch stored a trace of it (or had it already). */
const stored = (body: unknown) =>
  Array.isArray((body as { results?: unknown } | null)?.results) &&
  (body as { results: { status?: unknown }[] }).results.some((r) => r?.status === 'accepted' || r?.status === 'duplicate');

export function watchDelivery(collectorUrl: string): Delivery {
  let problem: string | null = null;
  /**
   * Attempts begun, and the latest begun of those told: with several batches on their way, an
   * older attempt answering late (stored before the collector went down) says nothing of now.
   */
  let begun = 0;
  let told = 0;
  const tell = (attempt: number, now: string | null) => {
    if (attempt < told) return;
    told = attempt;
    problem = now;
  };
  const notReaching = (why: string) => `Feedback is not reaching the collector at ${collectorUrl}: ${why}`;
  return {
    async fetch(request) {
      const attempt = ++begun;
      let res: Response;
      try {
        res = await fetch(request);
      } catch (err) {
        tell(attempt, notReaching('it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL).'));
        throw err;
      }
      const body = await res
        .clone()
        .json()
        .catch(() => null);
      if (res.status === 401 || res.status === 403) {
        const said = collectorError(body)?.message;
        tell(
          attempt,
          notReaching(
            `it refuses the demo's key (HTTP ${res.status}${said ? `: ${said}` : ''}). Check that the demo has this collector's keys (.dev-keys.json, written by npm start).`,
          ),
        );
      } else if (res.status >= 500) {
        tell(attempt, notReaching(`it fails (HTTP ${res.status}). Check its log.`));
      } else if (res.ok && stored(body)) {
        tell(attempt, null);
      }
      return res;
    },
    settled(outcome) {
      // Failed without an attempt failing (an answer that is not the collector's, one whose body never came): as new as now.
      if (outcome.status === 'failed') tell(++begun, problem ?? notReaching(`${outcome.reason}. Check its address (COLLECTOR_URL) and its log.`));
    },
    problem: () => problem,
  };
}
