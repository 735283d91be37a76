import type { BackoffOptions } from '../../shared/backoff.ts';
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, DELIVERY_TIMEOUT_MS, FLUSH_DELAY_MS, MIN_BACKOFF_MS } from '../defaults.ts';
import { fill } from '../typed.ts';

/** Delivery timing, which the host page may set (`transport`). */
export interface TransportOptions {
  /** Wait after an event before sending, so events of one interaction travel together. */
  flushDelayMs: number;
  /** Retry timing after a network error, a 5xx or a 429. */
  backoff: BackoffOptions;
  /** Longest wait for the collector's answer to a batch, then retried as after a network error; 0 for none, as is MAX_TIMER_MS or more. */
  timeoutMs: number;
}

/** Delivery timing as the page sets it: what it leaves out, also within `backoff`, keeps its default. */
export type TransportInput = { [K in keyof TransportOptions]?: Partial<TransportOptions[K]> };

export const DEFAULT_TRANSPORT: TransportOptions = {
  flushDelayMs: FLUSH_DELAY_MS,
  backoff: { baseMs: BACKOFF_BASE_MS, maxMs: BACKOFF_MAX_MS },
  timeoutMs: DELIVERY_TIMEOUT_MS,
};

/** Delivery timing as the page set it (`given`), filled with the defaults. */
export function transportOptions(given: unknown): TransportOptions {
  const opts = fill(given, DEFAULT_TRANSPORT);
  for (const key of ['baseMs', 'maxMs'] as const) if (opts.backoff[key] < MIN_BACKOFF_MS) opts.backoff[key] = DEFAULT_TRANSPORT.backoff[key];
  return opts;
}
