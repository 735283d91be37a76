import type { BackoffOptions } from '../shared/backoff.ts';
import { isHeaderSafeKey } from '../shared/header-key.ts';
import { endpointProblem, isHttpUrl, withoutCredentials } from '../shared/url.ts';

interface Numbers {
  batchSize: number;
  flushIntervalMs: number;
  maxAttempts: number;
  timeoutMs: number;
  maxInFlight: number;
  maxQueuedBytes: number;
  backoff: BackoffOptions;
}

/**
 * The longest wait a timer takes (2^31 - 1 ms, some 24.8 days): a longer one fires at once, so a
 * deadline of `Number.MAX_SAFE_INTEGER` meant as "none" would fail every request within a millisecond.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** `name` as given, or its default; a RangeError naming it when it is not a number in range (`infinite`: or Infinity). */
export function numberOption(
  name: string,
  given: unknown,
  fallback: number,
  { min, max = Number.MAX_VALUE, integer, infinite }: { min: number; max?: number; integer?: boolean; infinite?: boolean },
): number {
  if (given === undefined || (infinite && given === Number.POSITIVE_INFINITY)) return given ?? fallback;
  if (typeof given !== 'number' || !Number.isFinite(given) || given < min || given > max || (integer && !Number.isInteger(given))) {
    const range = max === Number.MAX_VALUE ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new RangeError(`${name} must be ${integer ? 'an integer' : 'a number'} ${range}, not ${String(given)}`);
  }
  return given;
}

/** A wait in milliseconds that a timer measures: from 0 to `MAX_TIMER_MS`. */
export const msOption = (name: string, given: unknown, fallback: number): number => numberOption(name, given, fallback, { min: 0, max: MAX_TIMER_MS });

/**
 * The client's numeric options, checked when it is made: a batch size of 0 would never send and a
 * backoff without its bounds would retry at once, so such settings fail loudly at start-up.
 */
export function checkedOptions(options: Partial<Numbers>, defaults: Numbers): Numbers {
  const backoff = options.backoff;
  // null from a config file, or one number: not the two bounds a retry's delay needs.
  if (backoff !== undefined && (typeof backoff !== 'object' || backoff === null)) {
    throw new RangeError(`backoff must be { baseMs, maxMs }, not ${String(backoff)}`);
  }
  return {
    batchSize: numberOption('batchSize', options.batchSize, defaults.batchSize, { min: 1, integer: true }),
    flushIntervalMs: msOption('flushIntervalMs', options.flushIntervalMs, defaults.flushIntervalMs),
    maxAttempts: numberOption('maxAttempts', options.maxAttempts, defaults.maxAttempts, { min: 1, integer: true }),
    timeoutMs: msOption('timeoutMs', options.timeoutMs, defaults.timeoutMs),
    maxInFlight: numberOption('maxInFlight', options.maxInFlight, defaults.maxInFlight, { min: 1, integer: true }),
    maxQueuedBytes: numberOption('maxQueuedBytes', options.maxQueuedBytes, defaults.maxQueuedBytes, { min: 1 }),
    backoff:
      backoff === undefined
        ? defaults.backoff
        : {
            baseMs: msOption('backoff.baseMs', backoff.baseMs, defaults.backoff.baseMs),
            maxMs: msOption('backoff.maxMs', backoff.maxMs, defaults.backoff.maxMs),
          },
  };
}

/**
 * Where and as whom the client calls the collector, checked when it is made: an unset environment
 * variable, a URL without its scheme, or a URL or key read with its line break (or an `endpointProblem`), would otherwise fail every
 * request, each only after its retries.
 */
export function checkedConnection(options: { endpoint: unknown; serverKey: unknown }): void {
  const { endpoint, serverKey } = options;
  if (!isHttpUrl(endpoint)) {
    throw new RangeError(
      `endpoint must be an http(s) URL, not ${typeof endpoint === 'string' ? JSON.stringify(withoutCredentials(endpoint)) : String(endpoint)}`,
    );
  }
  const problem = endpointProblem(endpoint);
  if (problem) throw new RangeError(`endpoint ${problem}`);
  // A header value cannot hold spaces at its ends nor control characters; a key holds neither.
  if (typeof serverKey !== 'string' || !isHeaderSafeKey(serverKey)) {
    throw new RangeError(
      `serverKey must be the project's server key (rfs_…), not ${typeof serverKey === 'string' ? JSON.stringify(serverKey) : String(serverKey)}`,
    );
  }
}

/** What the client sends its requests with: a fetch function, or a service binding (`env.COLLECTOR`). */
export type FetchOption = ((request: Request) => Promise<Response>) | { fetch: (request: Request) => Promise<Response> };

/**
 * The fetch the client sends with. A function is called on its own, never as a method of the
 * options (on Workers the global `fetch` throws "Illegal invocation" called on another object), and
 * a service binding's `fetch` on the binding (taken off it, `env.COLLECTOR.fetch`, it throws the
 * same). Undefined (an unset binding) is the global fetch, not one that fails every request.
 */
export function fetchOf(given: FetchOption | undefined): (request: Request) => Promise<Response> {
  if (given === undefined) return (r) => fetch(r);
  if (typeof given === 'function') return (r) => given(r);
  return (r) => given.fetch(r);
}

/**
 * `fetch` and `onError`, when given, checked when the client is made: a `fetch` that is neither a
 * function nor a service binding would fail every request, each only after its retries, and an
 * `onError` that is not a function would leave every failure untold.
 */
export function checkedCallbacks(options: { fetch?: unknown; onError?: unknown }): void {
  const kind = (given: unknown) => (given === null ? 'null' : typeof given);
  const given = options.fetch;
  if (given !== undefined && typeof given !== 'function' && typeof (given as { fetch?: unknown } | null)?.fetch !== 'function') {
    throw new RangeError(`fetch must be a function or a service binding, not ${kind(given)}`);
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new RangeError(`onError must be a function, not ${kind(options.onError)}`);
  }
}
