import type { Context, MiddlewareHandler } from 'hono';
import { hashKey } from '../auth/key-format.ts';
import type { KeyKind } from '../auth/key-kinds.ts';
import { lookupKey } from '../auth/keys.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { openDb } from '../storage/sql/db.ts';

/**
 * The key from, in order: `Authorization: Bearer`, `X-Api-Key`, and where a write key is taken,
 * the `key` query parameter or the body's `writeKey` (for navigator.sendBeacon, which cannot set
 * headers). A server or admin key is never read from a URL, which proxies and logs keep.
 */
function presentedKey(c: Context<AppEnv>, kinds: readonly KeyKind[]): { key: string | undefined; inUrlOrBody: boolean } {
  const header = headerKey(c);
  if (header !== undefined || !kinds.includes('write')) return { key: header, inUrlOrBody: false };
  const body = c.get('body');
  const fromBody = typeof body === 'object' && body !== null && 'writeKey' in body ? body.writeKey : undefined;
  return { key: c.req.query('key') || (typeof fromBody === 'string' ? fromBody : undefined), inUrlOrBody: true };
}

/** The key in `Authorization: Bearer` or else `X-Api-Key`; either header empty (or `Bearer` with nothing after it) is none. */
export function headerKey(c: Context<AppEnv>): string | undefined {
  const auth = c.req.header('authorization');
  // An empty header or `?key=` is no key: one `X-Api-Key`, the URL or the body carries still counts.
  const bearer = auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
  return bearer || c.req.header('x-api-key') || undefined;
}

/** A key's hash, computed once for the request: the IP limit and `requireKey` both look up the header's key. */
export async function keyHashOf(c: Context<AppEnv>, key: string): Promise<string> {
  const hashed = c.get('hashedKey');
  if (hashed?.key === key) return hashed.hash;
  const hash = await hashKey(key);
  c.set('hashedKey', { key, hash });
  return hash;
}

/** "an admin", "a server", "a write". */
const withArticle = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** "a write or server key". */
const kindsNamed = (kinds: readonly KeyKind[]) => `${withArticle(kinds.join(' or '))} key`;

/** Admits only a live key of one of `kinds`; a write key also only from one of its project's origins. */
export const requireKey = (...kinds: [KeyKind, ...KeyKind[]]): MiddlewareHandler<AppEnv> =>
  async function requireKey(c, next) {
    const { key, inUrlOrBody } = presentedKey(c, kinds);
    if (!key) {
      const where = kinds.includes('write') ? '' : ' in Authorization or X-Api-Key';
      throw new ApiError(401, { code: 'missing_key', message: `This endpoint needs ${kindsNamed(kinds)}${where}`, field: 'key' });
    }
    const auth = await lookupKey(openDb(c.env.DB), await keyHashOf(c, key));
    if (!auth) throw new ApiError(401, { code: 'invalid_key', message: 'The key is unknown or revoked', field: 'key' });
    // First: whatever the endpoint, a key that should never be in a URL has leaked, and must be revoked.
    if (inUrlOrBody && auth.kind !== 'write') {
      throw new ApiError(403, {
        code: 'key_not_in_header',
        message: `${auth.kind === 'admin' ? 'An' : 'A'} ${auth.kind} key is read from Authorization or X-Api-Key alone, never the URL or the body: revoke this one, it may be in logs`,
        field: 'key',
      });
    }
    if (!kinds.includes(auth.kind)) {
      throw new ApiError(403, {
        code: 'wrong_key_kind',
        message: `This endpoint needs ${kindsNamed(kinds)}, not ${withArticle(auth.kind)} key`,
        field: 'key',
      });
    }
    const origin = c.req.header('origin');
    // Browsers always send Origin on these requests; its absence means a server or a script,
    // for which an origin list protects nothing (the write key is public by design).
    if (auth.kind === 'write' && origin !== undefined && !auth.origins.includes(origin)) {
      throw new ApiError(403, { code: 'origin_not_allowed', message: `Origin ${origin} is not allowed for this project`, field: 'origin' });
    }
    c.set('auth', auth);
    await next();
  };
