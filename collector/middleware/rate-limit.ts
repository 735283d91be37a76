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
  /** Requests one client IP may make per minute, good or bad. */
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

function take(costs: BucketCost[]): void {
  const result = buckets.take(costs, Date.now());
  if (result.ok) return;
  const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  const scope = result.name.slice(0, result.name.indexOf(':'));
  throw new ApiError(429, 'rate_limited', `Too many requests for this ${scope}; retry in ${seconds} s`, scope, {
    'Retry-After': String(seconds),
  });
}

/** Every request from one client IP, before anything else is done for it. */
export const ipRateLimit = (): MiddlewareHandler<AppEnv> =>
  async function ipRateLimit(c, next) {
    const ip = c.req.header('cf-connecting-ip') ?? 'unknown';
    take([{ name: `ip:${ip}`, cost: 1, capacity: limitOf(c.env.RATE_LIMIT_IP_PER_MIN, DEFAULT_RATE_LIMITS.ip) }]);
    await next();
  };

export interface WriteRateLimitOptions {
  /** Units this request spends from its key's bucket: events or traces in the batch. */
  units: (c: Context<AppEnv>) => number;
  /** Events per session in the batch, for the per-session buckets. */
  sessions?: (c: Context<AppEnv>) => Map<string, number>;
}

/** Writes per key and per session; a refused batch spends nothing. */
export const writeRateLimit = ({ units, sessions }: WriteRateLimitOptions): MiddlewareHandler<AppEnv> =>
  async function writeRateLimit(c, next) {
    const env: Env = c.env;
    const { projectId, keyHash } = c.get('auth');
    const costs: BucketCost[] = [{ name: `key:${keyHash}`, cost: units(c), capacity: limitOf(env.RATE_LIMIT_KEY_PER_MIN, DEFAULT_RATE_LIMITS.key) }];
    const sessionCapacity = limitOf(env.RATE_LIMIT_SESSION_PER_MIN, DEFAULT_RATE_LIMITS.session);
    for (const [session, cost] of sessions?.(c) ?? []) {
      costs.push({ name: `session:${projectId}:${session}`, cost, capacity: sessionCapacity });
    }
    take(costs);
    await next();
  };
