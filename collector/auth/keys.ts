import { MAX_ORIGIN_CHARS } from '../../shared/thresholds.ts';
import { anyProjectAllows, liveKey, originsOf } from '../storage/keys.ts';
import type { Db } from '../storage/sql/db.ts';
import type { KeyKind } from './key-kinds.ts';
import { TtlCache } from './ttl-cache.ts';

export interface AuthenticatedKey {
  projectId: string;
  kind: KeyKind;
  /** Origins the project allows in browsers (checked for write keys). */
  origins: readonly string[];
  /** The key's hash: names the key's rate-limit bucket without holding the key. */
  keyHash: string;
}

/** A revoked key or a changed origin list takes effect within a minute. */
const keyCache = new TtlCache<AuthenticatedKey | null>();
const originCache = new TtlCache<boolean>();

/** The live key with this hash: its project and kind, or null for an unknown or revoked key. */
export function lookupKey(db: Db, keyHash: string): Promise<AuthenticatedKey | null> {
  return keyCache.get(keyHash, async () => {
    const row = await liveKey(db, keyHash);
    if (!row) return null;
    return { ...row, origins: await originsOf(db, row.projectId), keyHash };
  });
}

/**
 * The live key as the cache last read it, or undefined when it must be read from D1 (or is unknown
 * or revoked): what may be decided about a request before anything is looked up for it.
 */
export const cachedKey = (keyHash: string): AuthenticatedKey | undefined => keyCache.peek(keyHash) ?? undefined;

/**
 * Whether any project allows this origin: all a CORS preflight, which carries no key, can check.
 * One longer than any allowed is answered at once: cached, a header of many kilobytes a request
 * would fill the isolate's memory a thousand entries at a time.
 */
export const originKnown = async (db: Db, origin: string): Promise<boolean> =>
  origin.length <= MAX_ORIGIN_CHARS && originCache.get(origin, () => anyProjectAllows(db, origin));
