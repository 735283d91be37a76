import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { lookupKey } from '../auth/keys.ts';
import { ApiError } from '../errors.ts';
import { openDb } from '../storage/sql/db.ts';
import type { KeyKind } from '../auth/key-kinds.ts';

/**
 * The key from, in order: `Authorization: Bearer`, `X-Api-Key`, the `key` query parameter, or the
 * body's `writeKey` (the last two for navigator.sendBeacon, which cannot set headers).
 */
function presentedKey(c: Parameters<MiddlewareHandler>[0]): string | undefined {
  const auth = c.req.header('authorization');
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  const fromBody = (c.get('body') as { writeKey?: unknown } | undefined)?.writeKey;
  return c.req.header('x-api-key') ?? c.req.query('key') ?? (typeof fromBody === 'string' ? fromBody : undefined);
}

/** Admits only a live key of `kind`; a write key also only from one of its project's origins. */
export const requireKey = (kind: KeyKind): MiddlewareHandler<AppEnv> =>
  async function requireKey(c, next) {
    const key = presentedKey(c);
    if (!key) throw new ApiError(401, 'missing_key', `This endpoint needs a ${kind} key`, 'key');
    const auth = await lookupKey(openDb(c.env.DB), key);
    if (!auth) throw new ApiError(401, 'invalid_key', 'The key is unknown or revoked', 'key');
    if (auth.kind !== kind) {
      throw new ApiError(403, 'wrong_key_kind', `This endpoint needs a ${kind} key, not a ${auth.kind} key`, 'key');
    }
    const origin = c.req.header('origin');
    // Browsers always send Origin on these requests; its absence means a server or a script,
    // for which an origin list protects nothing (the write key is public by design).
    if (kind === 'write' && origin !== undefined && !auth.origins.includes(origin)) {
      throw new ApiError(403, 'origin_not_allowed', `Origin ${origin} is not allowed for this project`, 'origin');
    }
    c.set('auth', auth);
    await next();
  };
