/** Retry timing shared by the widget's outbox and the backend client. */
export interface BackoffOptions {
  /** First retry delay. */
  baseMs: number;
  /** Longest delay, however many attempts failed. */
  maxMs: number;
}

/**
 * Exponential backoff with full jitter: a random delay up to base * 2^attempt, capped. Jitter
 * spreads retries so that clients knocked offline together do not come back together.
 */
export function backoffDelay(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The wait before retry `attempt`: the backoff's, or longer when the server asked (`Retry-After`),
 * but never past `maxMs`: a proxy's maintenance page asking for an hour would hold delivery that long.
 */
export function retryDelay(attempt: number, options: BackoffOptions, retryAfter = 0, random?: () => number): number {
  return Math.max(backoffDelay(attempt, options, random), Math.min(retryAfter, options.maxMs));
}

/** A `Retry-After` header (seconds or an HTTP date) as milliseconds from `now`, or undefined. */
export function retryAfterMs(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
