import { and, eq, gt, isNull, or } from 'drizzle-orm';
import { apiKeys, projectOrigins, projects } from './schema/index.ts';
import type { Db } from './sql/db.ts';

/**
 * The project and kind of the live key with this hash: not revoked, or revoked from a time still to
 * come (a write key's grace, for events visitors' outboxes recorded under it before a rotation).
 */
export const liveKey = (db: Db, keyHash: string, now = Date.now()) =>
  db
    .select({ projectId: apiKeys.projectId, kind: apiKeys.kind })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, keyHash), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now))))
    .get();

/** The origins a project allows its write key in. */
export async function originsOf(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.select({ origin: projectOrigins.origin }).from(projectOrigins).where(eq(projectOrigins.projectId, projectId));
  return rows.map((r) => r.origin);
}

/** Whether any project allows this origin. */
export async function anyProjectAllows(db: Db, origin: string): Promise<boolean> {
  const row = await db.select({ o: projectOrigins.origin }).from(projectOrigins).where(eq(projectOrigins.origin, origin)).get();
  return row !== undefined;
}

/** A project's id and name. */
export const projectOf = (db: Db, projectId: string) =>
  db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.id, projectId)).get();
