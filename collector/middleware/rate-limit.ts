import type { MiddlewareHandler } from 'hono';
import { sha256Hex } from '../../shared/hex.ts';
import { EXTERNAL_ID_MAX } from '../../shared/schema/common.ts';
import { type BucketCost, TokenBuckets } from '../../shared/token-bucket.ts';
import { cachedKey } from '../auth/keys.ts';
import { clientNetwork } from '../client-network.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError } from '../errors.ts';
import { readVar } from '../worker-vars.ts';
import { headerKey, keyHashOf } from './require-key.ts';

/** Defaults per minute; override with the RATE_LIMIT_* vars. */
export { DEFAULT_RATE_LIMITS } from '../worker-vars.ts';

/**
 * In-memory buckets live in the isolate: exact under `wrangler dev` (one isolate), and per
 * isolate on Cloudflare, where each location then allows the limit (a bound on abuse, not a quota).
 */
const buckets = new TokenBuckets();

/** A wait as whole seconds, at least 1: what `Retry-After` and a held item's `retryAfter` say. */
export const retrySeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function take(costs: BucketCost[], now = Date.now()): void {
  const result = buckets.take(costs, now);
  if (result.ok) return;
  const seconds = retrySeconds(result.retryAfterMs);
  const scope = result.name.slice(0, result.name.indexOf(':'));
  throw new ApiError(429, {
    code: 'rate_limited',
    message: `Too many requests for this ${scope}; retry in ${seconds} s`,
    field: scope,
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * Every request from one client IP (an IPv6 client: its /64), before anything else is done for it.
 * The limit is for what anyone may send (no key, a bad one, the public write key): a request
 * with a secret key (server, admin or viewer) the cache holds as live counts against that key's
 * limit instead, so a backend calling for each user's question from one address, or the console's
 * readers behind one office's, are not held to a browser's rate. A key not cached counts against
 * the IP once, as it is read from D1 for the minute after.
 */
export const ipRateLimit = (): MiddlewareHandler<AppEnv> =>
  async function ipRateLimit(c, next) {
    const key = headerKey(c);
    const auth = key === undefined ? undefined : cachedKey(await keyHashOf(c, key));
    if (auth && auth.kind !== 'write') {
      take([{ name: `key:${auth.keyHash}`, cost: 1, capacity: readVar(c.env, 'RATE_LIMIT_KEY_PER_MIN') }]);
    } else {
      const ip = clientNetwork(c.req.header('cf-connecting-ip') ?? 'unknown');
      take([{ name: `ip:${ip}`, cost: 1, capacity: readVar(c.env, 'RATE_LIMIT_IP_PER_MIN') }]);
    }
    await next();
  };

/** What one write spends. */
export interface WriteCost {
  /** Units from the key's bucket: events or traces in the batch. */
  units: number;
  /** Events per session in the batch, for the per-session buckets. */
  sessions?: ReadonlyMap<string, number>;
}

/**
 * Writes per key and per session, costed from the validated body; a refused batch spends nothing.
 * A batch in which only some sessions are over their limit is not refused whole: those sessions
 * are set aside in `sessionsOverLimit` (each with the seconds it should wait), their items cost
 * nothing, and the handler answers them `rate_limited` while it stores the rest. Every session
 * over, or the key, is a 429 for the whole request.
 */
export const writeRateLimit = <T>(costOf: (input: T) => WriteCost): MiddlewareHandler<AppEnv & WithInput<T>> =>
  async function writeRateLimit(c, next) {
    const { projectId, keyHash } = c.get('auth');
    const { units, sessions = new Map<string, number>() } = costOf(c.get('input'));
    const now = Date.now();
    const sessionCapacity = readVar(c.env, 'RATE_LIMIT_SESSION_PER_MIN');
    // A session id is not checked yet (a 60 KB one passes to here), and the isolate keeps 50,000
    // buckets: one longer than any valid id is named by its digest, or the public write key could fill its memory.
    const perSession = await Promise.all(
      [...sessions].map(async ([session, cost]) => ({
        session,
        name: `session:${projectId}:${session.length > EXTERNAL_ID_MAX ? await sha256Hex(session) : session}`,
        cost,
        capacity: sessionCapacity,
      })),
    );
    const over = new Map<string, number>();
    for (const s of perSession) {
      const waitMs = buckets.waitFor(s, now);
      if (waitMs > 0) over.set(s.session, retrySeconds(waitMs));
    }
    // Every session over: nothing of the batch could be taken, and `take` refuses it whole.
    const held = over.size < perSession.length ? perSession.filter((s) => over.has(s.session)) : [];
    const heldUnits = held.reduce((sum, s) => sum + s.cost, 0);
    take(
      [{ name: `key:${keyHash}`, cost: units - heldUnits, capacity: readVar(c.env, 'RATE_LIMIT_KEY_PER_MIN') }, ...perSession.filter((s) => !held.includes(s))],
      now,
    );
    c.set('sessionsOverLimit', held.length > 0 ? over : undefined);
    await next();
  };
