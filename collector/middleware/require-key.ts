import type { Context, MiddlewareHandler } from 'hono';
import type { KeyKind } from '../auth/key-kinds.ts';
import { lookupKey } from '../auth/keys.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { openDb } from '../storage/sql/db.ts';

/**
 * The key from, in order: `Authorization: Bearer`, `X-Api-Key`, and for a write key only, the `key`
 * query parameter or the body's `writeKey` (for navigator.sendBeacon, which cannot set headers).
 * A server or admin key is never read from a URL, which proxies and logs keep.
 */
function presentedKey(c: Context<AppEnv>, kind: KeyKind): string | undefined {
  const auth = c.req.header('authorization');
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  const header = c.req.header('x-api-key');
  if (header !== undefined || kind !== 'write') return header;
  const body = c.get('body');
  const fromBody = typeof body === 'object' && body !== null && 'writeKey' in body ? body.writeKey : undefined;
  return c.req.query('key') ?? (typeof fromBody === 'string' ? fromBody : undefined);
}

/** "an admin", "a server", "a write". */
const withArticle = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** Admits only a live key of `kind`; a write key also only from one of its project's origins. */
export const requireKey = (kind: KeyKind): MiddlewareHandler<AppEnv> =>
  async function requireKey(c, next) {
    const key = presentedKey(c, kind);
    if (!key) {
      const where = kind === 'write' ? '' : ' in Authorization or X-Api-Key';
      throw new ApiError(401, { code: 'missing_key', message: `This endpoint needs ${withArticle(kind)} key${where}`, field: 'key' });
    }
    const auth = await lookupKey(openDb(c.env.DB), key);
    if (!auth) throw new ApiError(401, { code: 'invalid_key', message: 'The key is unknown or revoked', field: 'key' });
    if (auth.kind !== kind) {
      throw new ApiError(403, {
        code: 'wrong_key_kind',
        message: `This endpoint needs ${withArticle(kind)} key, not ${withArticle(auth.kind)} key`,
        field: 'key',
      });
    }
    const origin = c.req.header('origin');
    // Browsers always send Origin on these requests; its absence means a server or a script,
    // for which an origin list protects nothing (the write key is public by design).
    if (kind === 'write' && origin !== undefined && !auth.origins.includes(origin)) {
      throw new ApiError(403, { code: 'origin_not_allowed', message: `Origin ${origin} is not allowed for this project`, field: 'origin' });
    }
    c.set('auth', auth);
    await next();
  };
