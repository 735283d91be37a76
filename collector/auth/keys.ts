import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../storage/db.ts';
import { apiKeys, projectOrigins, type KeyKind } from '../storage/schema.ts';
import { hashKey } from './key-format.ts';
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

/** The live key's project and kind, or null for an unknown or revoked key. */
export async function lookupKey(db: Db, key: string): Promise<AuthenticatedKey | null> {
  const keyHash = await hashKey(key);
  return keyCache.get(keyHash, async () => {
    const row = await db
      .select({ projectId: apiKeys.projectId, kind: apiKeys.kind })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
      .get();
    if (!row) return null;
    const origins = await db.select({ origin: projectOrigins.origin }).from(projectOrigins).where(eq(projectOrigins.projectId, row.projectId));
    return { ...row, origins: origins.map((o) => o.origin), keyHash };
  });
}

/** Whether any project allows this origin: all a CORS preflight, which carries no key, can check. */
export function originKnown(db: Db, origin: string): Promise<boolean> {
  return originCache.get(origin, async () => {
    const row = await db.select({ o: projectOrigins.origin }).from(projectOrigins).where(eq(projectOrigins.origin, origin)).get();
    return row !== undefined;
  });
}
