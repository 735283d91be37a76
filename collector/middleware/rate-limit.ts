import type { MiddlewareHandler } from 'hono';
import { type BucketCost, TokenBuckets } from '../../shared/token-bucket.ts';
import { clientNetwork } from '../client-network.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError } from '../errors.ts';
import { readVar } from '../worker-vars.ts';

/** Defaults per minute; override with the RATE_LIMIT_* vars. */
export { DEFAULT_RATE_LIMITS } from '../worker-vars.ts';

/**
 * In-memory buckets live in the isolate: exact under `wrangler dev` (one isolate), and per
 * isolate on Cloudflare, where each location then allows the limit (a bound on abuse, not a quota).
 */
const buckets = new TokenBuckets();

function take(costs: BucketCost[]): void {
  const result = buckets.take(costs, Date.now());
  if (result.ok) return;
  const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  const scope = result.name.slice(0, result.name.indexOf(':'));
  throw new ApiError(429, {
    code: 'rate_limited',
    message: `Too many requests for this ${scope}; retry in ${seconds} s`,
    field: scope,
    headers: { 'Retry-After': String(seconds) },
  });
}

/** Every request from one client IP (an IPv6 client: its /64), before anything else is done for it. */
export const ipRateLimit = (): MiddlewareHandler<AppEnv> =>
  async function ipRateLimit(c, next) {
    const ip = clientNetwork(c.req.header('cf-connecting-ip') ?? 'unknown');
    take([{ name: `ip:${ip}`, cost: 1, capacity: readVar(c.env, 'RATE_LIMIT_IP_PER_MIN') }]);
    await next();
  };

/** What one write spends. */
export interface WriteCost {
  /** Units from the key's bucket: events or traces in the batch. */
  units: number;
  /** Events per session in the batch, for the per-session buckets. */
  sessions?: ReadonlyMap<string, number>;
}

/** Writes per key and per session, costed from the validated body; a refused batch spends nothing. */
export const writeRateLimit = <T>(costOf: (input: T) => WriteCost): MiddlewareHandler<AppEnv & WithInput<T>> =>
  async function writeRateLimit(c, next) {
    const { projectId, keyHash } = c.get('auth');
    const { units, sessions } = costOf(c.get('input'));
    const costs: BucketCost[] = [{ name: `key:${keyHash}`, cost: units, capacity: readVar(c.env, 'RATE_LIMIT_KEY_PER_MIN') }];
    const sessionCapacity = readVar(c.env, 'RATE_LIMIT_SESSION_PER_MIN');
    for (const [session, cost] of sessions ?? []) {
      costs.push({ name: `session:${projectId}:${session}`, cost, capacity: sessionCapacity });
    }
    take(costs);
    await next();
  };
