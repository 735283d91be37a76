/**
 * Whether the demo's feedback reaches the collector, as its trace client finds when it sends, and
 * whether the collector takes the widget's events from the page's origin: the page shows what to
 * check while it does not (`GET /api/delivery`), and nothing once a trace is stored again and the
 * origin is allowed.
 */
import { collectorError } from '../../client/collector-error.ts';
import { remember } from '../../shared/remember.ts';
import { joinUrl } from '../../shared/url.ts';
import { originVerdict } from './widget-origin.ts';

/** How long what the collector said of a page's origin holds before it is asked again, while the page asks. */
const ORIGIN_CHECK_MS = 5_000;
/** How long a look at the health of a collector that did not answer waits for it. */
const HEALTH_TIMEOUT_MS = 5_000;
/** Origins remembered at once: the pages open on the demo name one or two (127.0.0.1, localhost). */
const MAX_ORIGINS = 16;

export interface Delivery {
  /**
   * The trace client's fetch: each attempt that fails is told at once, not only once its retries
   * are spent (some 15 s against a collector that is down, over a minute against one that hangs),
   * and each that stores a trace too.
   */
  fetch: (request: Request) => Promise<Response>;
  /** What became of a trace: one failed without an attempt failing is told too. */
  settled: (outcome: { status: string; reason?: string }) => void;
  /**
   * What a page at `pageOrigin` says while feedback does not reach the collector; null while it
   * does, or before anything was sent. The traces' problem first, then, as well, the origin's, which
   * the browser's failed CORS preflight hides from the page, so it is asked here as the widget would.
   */
  problem: (pageOrigin: string) => string | null;
}

/** Whether a collector's answer to a batch stored a trace of it (or had it already). */
const stored = (body: unknown) =>
  Array.isArray((body as { results?: unknown } | null)?.results) &&
  (body as { results: { status?: unknown }[] }).results.some((r) => r?.status === 'accepted' || r?.status === 'duplicate');

export function watchDelivery(collectorUrl: string, writeKey?: string): Delivery {
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
  const doesNotAnswer = notReaching('it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL).');
  /**
   * While the collector does not answer, its health is looked at as the page asks: once every retry
   * of a trace was spent, nothing else would see it back until the next question's trace is stored.
   * It sends no trace: those given up stay given up. Only "does not answer": a collector refusing
   * the key or failing with a 5xx may answer its health and still not store a trace.
   */
  let looking = false;
  const lookAgain = () => {
    if (looking) return;
    looking = true;
    const attempt = ++begun;
    void fetch(joinUrl(collectorUrl, 'v1/health'), { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) })
      .then((res) => res.json())
      .then((body: { status?: unknown } | null) => {
        if (body?.status === 'ok' && problem === doesNotAnswer) tell(attempt, null);
      })
      .catch(() => {})
      .finally(() => {
        looking = false;
      });
  };
  /** Why the collector last said it refuses each origin (null: it does not); asked again (one question at a time) once it is ORIGIN_CHECK_MS old. */
  const origins = new Map<string, { problem: string | null; askedAt: number }>();
  const originProblem = (origin: string) => {
    const known = origins.get(origin);
    if (writeKey && (!known || Date.now() - known.askedAt >= ORIGIN_CHECK_MS)) {
      const asking = { problem: known?.problem ?? null, askedAt: Date.now() };
      remember(origins, origin, asking, MAX_ORIGINS);
      void originVerdict(collectorUrl, writeKey, origin).then((verdict) => {
        // A collector that did not tell leaves what it said last.
        if (verdict !== undefined) asking.problem = verdict && `${verdict}.`;
      });
    }
    return known?.problem ?? null;
  };
  return {
    async fetch(request) {
      const attempt = ++begun;
      let res: Response;
      try {
        res = await fetch(request);
      } catch (err) {
        tell(attempt, doesNotAnswer);
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
    problem(pageOrigin) {
      if (problem === doesNotAnswer) lookAgain();
      // Asked whatever the traces' problem: once it is gone, the origin's is known already.
      const origin = originProblem(pageOrigin);
      if (!origin) return problem;
      return problem ? `${problem} Also, ${origin}` : notReaching(origin);
    },
  };
}
