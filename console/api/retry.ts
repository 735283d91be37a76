import { ApiRequestError, NetworkError } from './client.ts';

/** Statuses that say the server (or a proxy before it) could not take the request just now. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** The waits before each new attempt: three more tries over about four seconds. */
export const RETRY_DELAYS_MS: readonly number[] = [250, 1000, 3000];

/** Whether a failed request may succeed if sent again unchanged. */
export function isTransient(err: unknown): boolean {
  return err instanceof NetworkError || (err instanceof ApiRequestError && TRANSIENT_STATUSES.has(err.status));
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request again after a transient failure. Only for requests that leave the same state
 * however often they arrive (setting a review answer), since a request that failed on its way
 * back may have been carried out.
 */
export async function retryingTransient<T>(request: () => Promise<T>, delays: readonly number[] = RETRY_DELAYS_MS, sleep = wait): Promise<T> {
  for (const delay of delays) {
    try {
      return await request();
    } catch (err) {
      if (!isTransient(err)) throw err;
      await sleep(delay);
    }
  }
  return request();
}
