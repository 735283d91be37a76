import { remember } from './remember.ts';

/**
 * Token buckets keyed by name: each holds up to `capacity` tokens and refills `capacity` per
 * `periodMs`. The collector limits keys, sessions and IPs with it; the widget limits a session.
 * Pure: the caller passes the clock, so tests need no timers.
 */
export interface BucketCost {
  /** Bucket name, e.g. `ip:203.0.113.9`. */
  name: string;
  /** Tokens this request takes (events in a batch, or 1 for a request). */
  cost: number;
  /** Bucket size: the burst allowed, and the refill per period. */
  capacity: number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number; name: string };

/** The tokens of a bucket of `capacity` that held `tokens` at `at`, refilled `capacity` per `periodMs` until `now`. */
export const refilled = (tokens: number, at: number, now: number, capacity: number, periodMs: number): number =>
  Math.min(capacity, tokens + ((now - at) * capacity) / periodMs);

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly periodMs = 60_000,
    /** Most buckets kept; the oldest go first (a forgotten bucket comes back full, erring on allowing). */
    private readonly maxBuckets = 50_000,
  ) {}

  /** Takes from every bucket, or from none if any lacks tokens (then says how long to wait). */
  take(costs: readonly BucketCost[], now: number): TakeResult {
    for (const c of costs) {
      const retryAfterMs = this.waitFor(c, now);
      if (retryAfterMs > 0) return { ok: false, name: c.name, retryAfterMs };
    }
    const levels = costs.map((c) => this.level(c, now));
    for (const [i, c] of costs.entries()) this.set(c.name, levels[i]! - c.cost, now);
    return { ok: true };
  }

  /** Milliseconds until the bucket could take `cost`; 0 when it can now. Takes nothing. */
  waitFor(c: BucketCost, now: number): number {
    const level = this.level(c, now);
    // A cost above capacity (a full batch under a small limit) passes from a full bucket and
    // leaves it owing, so it is slowed to the limit rather than refused for ever.
    if (c.cost <= level || level >= c.capacity) return 0;
    return Math.ceil(((Math.min(c.cost, c.capacity) - level) * this.periodMs) / c.capacity);
  }

  private level({ name, capacity }: BucketCost, now: number): number {
    const b = this.buckets.get(name);
    return b ? refilled(b.tokens, b.at, now, capacity, this.periodMs) : capacity;
  }

  private set(name: string, tokens: number, at: number): void {
    remember(this.buckets, name, { tokens, at }, this.maxBuckets);
  }
}
