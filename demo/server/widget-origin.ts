/**
 * Whether the collector takes the widget's events from the demo's page: the dev project allows the
 * origins `npm start` was given (port 5173, and the DEMO_PORT it ran with), and `npm run demo` may
 * run on another. Asked as the widget asks for its config, from the page's origin.
 */
import { collectorError } from '../../client/collector-error.ts';
import { joinUrl } from '../../shared/url.ts';

/** How long the question waits for a collector that does not answer: the demo starts regardless. */
const ASK_TIMEOUT_MS = 5_000;

/** What to say when the collector refuses the page's origin, else undefined (allowed, or no answer). */
export async function refusedOrigin(collectorUrl: string, writeKey: string, pageUrl: string): Promise<string | undefined> {
  return (await originVerdict(collectorUrl, writeKey, pageUrl)) ?? undefined;
}

/**
 * What to say when the collector refuses the page's origin, null when it takes it, undefined when
 * it did not tell (down, failing): what it said before then still stands.
 */
export async function originVerdict(collectorUrl: string, writeKey: string, pageUrl: string): Promise<string | null | undefined> {
  const origin = new URL(pageUrl).origin;
  try {
    const res = await fetch(joinUrl(collectorUrl, 'v1/config'), {
      headers: { authorization: `Bearer ${writeKey}`, origin },
      signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
    });
    if (res.ok) return null;
    if (res.status !== 403 || collectorError(await res.json().catch(() => null))?.code !== 'origin_not_allowed') return undefined;
    // Added to the running collector's project, not by starting another: that would be a second
    // collector, on PORT's default rather than this one's port.
    return `the dev project does not allow ${origin}, so the widget's events from it are refused (\`npm run keys -- origins dev --add ${origin}\` allows it within a minute)`;
  } catch {
    // A collector that is down says nothing of origins: the page's own errors will.
    return undefined;
  }
}
