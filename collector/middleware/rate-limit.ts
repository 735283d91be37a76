import type { Context, MiddlewareHandler } from 'hono';
import { TokenBuckets, type BucketCost } from '../../shared/token-bucket.ts';
import type { AppEnv, Env } from '../env.ts';
import { ApiError } from '../errors.ts';

/** Defaults per minute; override with the RATE_LIMIT_* vars. */
export const DEFAULT_RATE_LIMITS = {
  /** Events (or traces) one key may write per minute. */
  key: 60_000,
  /** Events one session may send per minute: a person clicks far less; a flood is a bug or abuse. */
  session: 600,
  /** Requests one IP may make per minute. */
  ip: 1_200,
};

/**
 * In-memory buckets live in the isolate: exact under `wrangler dev` (one isolate), and per
 * isolate on Cloudflare, where each location then allows the limit (a bound on abuse, not a quota).
 */
const buckets = new TokenBuckets();

const limitOf = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

export interface RateLimitOptions {
  /** Units this request spends per key: events or traces in the batch. */
  units: (c: Context<AppEnv>) => number;
  /** Events per session in the batch, for the per-session bucket. */
  sessions?: (c: Context<AppEnv>) => Map<string, number>;
}

/** Answers 429 with Retry-After when the key, a session or the client IP is over its limit. */
export const rateLimit = ({ units, sessions }: RateLimitOptions): MiddlewareHandler<AppEnv> =>
  async function rateLimit(c, next) {
    const env: Env = c.env;
    const { projectId, keyHash } = c.get('auth');
    const ip = c.req.header('cf-connecting-ip') ?? 'unknown';
    const costs: BucketCost[] = [
      { name: `key:${keyHash}`, cost: units(c), capacity: limitOf(env.RATE_LIMIT_KEY_PER_MIN, DEFAULT_RATE_LIMITS.key) },
      { name: `ip:${ip}`, cost: 1, capacity: limitOf(env.RATE_LIMIT_IP_PER_MIN, DEFAULT_RATE_LIMITS.ip) },
    ];
    const sessionCapacity = limitOf(env.RATE_LIMIT_SESSION_PER_MIN, DEFAULT_RATE_LIMITS.session);
    for (const [session, cost] of sessions?.(c) ?? []) {
      costs.push({ name: `session:${projectId}:${session}`, cost, capacity: sessionCapacity });
    }
    const result = buckets.take(costs, Date.now());
    if (!result.ok) {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      const scope = result.name.split(':')[0]!;
      throw new ApiError(429, 'rate_limited', `Too many requests for this ${scope}; retry in ${seconds} s`, scope, {
        'Retry-After': String(seconds),
      });
    }
    await next();
  };
