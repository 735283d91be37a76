import type { BackoffOptions } from '../shared/backoff.ts';

interface Numbers {
  batchSize: number;
  flushIntervalMs: number;
  maxAttempts: number;
  timeoutMs: number;
  maxInFlight: number;
  backoff: BackoffOptions;
}

/** `name` as given, or its default; a RangeError naming it when it is not a number in range (`infinite`: or Infinity). */
export function numberOption(
  name: string,
  given: unknown,
  fallback: number,
  { min, integer, infinite }: { min: number; integer?: boolean; infinite?: boolean },
): number {
  if (given === undefined || (infinite && given === Number.POSITIVE_INFINITY)) return given ?? fallback;
  if (typeof given !== 'number' || !Number.isFinite(given) || given < min || (integer && !Number.isInteger(given))) {
    throw new RangeError(`${name} must be ${integer ? 'an integer' : 'a number'} of at least ${min}, not ${String(given)}`);
  }
  return given;
}

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
    flushIntervalMs: numberOption('flushIntervalMs', options.flushIntervalMs, defaults.flushIntervalMs, { min: 0 }),
    maxAttempts: numberOption('maxAttempts', options.maxAttempts, defaults.maxAttempts, { min: 1, integer: true }),
    timeoutMs: numberOption('timeoutMs', options.timeoutMs, defaults.timeoutMs, { min: 0 }),
    maxInFlight: numberOption('maxInFlight', options.maxInFlight, defaults.maxInFlight, { min: 1, integer: true }),
    backoff:
      backoff === undefined
        ? defaults.backoff
        : {
            baseMs: numberOption('backoff.baseMs', backoff.baseMs, defaults.backoff.baseMs, { min: 0 }),
            maxMs: numberOption('backoff.maxMs', backoff.maxMs, defaults.backoff.maxMs, { min: 0 }),
          },
  };
}

/**
 * Where and as whom the client calls the collector, checked when it is made: an unset environment
 * variable, a URL without its scheme or a key read with its line break would otherwise fail every
 * request, each only after its retries.
 */
export function checkedConnection(options: { endpoint: unknown; serverKey: unknown }): void {
  const { endpoint, serverKey } = options;
  let url: URL | undefined;
  try {
    url = typeof endpoint === 'string' ? new URL(endpoint) : undefined;
  } catch {
    // Not a URL: named below.
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new RangeError(`endpoint must be an http(s) URL, not ${typeof endpoint === 'string' ? JSON.stringify(endpoint) : String(endpoint)}`);
  }
  // A header value cannot hold spaces at its ends nor control characters; a key holds neither.
  if (typeof serverKey !== 'string' || !/^[\x21-\x7e]+$/.test(serverKey)) {
    throw new RangeError(
      `serverKey must be the project's server key (rfs_…), not ${typeof serverKey === 'string' ? JSON.stringify(serverKey) : String(serverKey)}`,
    );
  }
}
