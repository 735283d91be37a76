/**
 * Whether the demo's feedback reaches the collector, as its trace client finds when it sends: the
 * page shows what to check while it does not (`GET /api/delivery`), and nothing once a trace is
 * stored again.
 */
import { collectorError } from '../../client/collector-error.ts';

export interface Delivery {
  /**
   * The trace client's fetch: each attempt that fails is told at once, not only once its retries
   * are spent (some 15 s against a collector that is down, over a minute against one that hangs).
   */
  fetch: (request: Request) => Promise<Response>;
  /** What became of a trace: one stored means feedback reaches the collector again. */
  settled: (outcome: { status: string; reason?: string }) => void;
  /** What the page says while feedback does not reach the collector; null while it does, or before anything was sent. */
  problem: () => string | null;
}

export function watchDelivery(collectorUrl: string): Delivery {
  let problem: string | null = null;
  const notReaching = (why: string) => `Feedback is not reaching the collector at ${collectorUrl}: ${why}`;
  return {
    async fetch(request) {
      let res: Response;
      try {
        res = await fetch(request);
      } catch (err) {
        problem = notReaching('it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL).');
        throw err;
      }
      if (res.status === 401 || res.status === 403) {
        const said = collectorError(
          await res
            .clone()
            .json()
            .catch(() => null),
        )?.message;
        problem = notReaching(
          `it refuses the demo's key (HTTP ${res.status}${said ? `: ${said}` : ''}). Check that the demo has this collector's keys (.dev-keys.json, written by npm start).`,
        );
      } else if (res.status >= 500) {
        problem = notReaching(`it fails (HTTP ${res.status}). Check its log.`);
      }
      return res;
    },
    settled(outcome) {
      if (outcome.status === 'accepted' || outcome.status === 'duplicate') problem = null;
      // Failed without an attempt failing (an answer that is not the collector's, one whose body never came).
      else if (outcome.status === 'failed') problem ??= notReaching(`${outcome.reason}. Check its address (COLLECTOR_URL) and its log.`);
    },
    problem: () => problem,
  };
}
