import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { QueuedEvents } from '../ingest-queue/messages.ts';
import { deadLetters } from './schema/index.ts';
import type { Db } from './sql/db.ts';

const ofProject = (projectId: string, id?: string) =>
  id === undefined ? eq(deadLetters.projectId, projectId) : and(eq(deadLetters.projectId, projectId), eq(deadLetters.id, id));

/** Keeps a message whose write failed, with that error: once, however often it is delivered. */
export const keepDeadLetter = (db: Db, projectId: string, id: string, message: QueuedEvents, error: string, now: number) =>
  db.insert(deadLetters).values({ projectId, id, deadLetteredAt: now, message, error, attempts: 1 }).onConflictDoNothing();

/** A project's dead letters in the order a replay takes them: least tried first (one that keeps failing does not hold back the rest), then oldest. */
export const deadLettersOf = (db: Db, projectId: string, limit: number) =>
  db
    .select()
    .from(deadLetters)
    .where(ofProject(projectId))
    .orderBy(asc(deadLetters.attempts), asc(deadLetters.deadLetteredAt), asc(deadLetters.id))
    .limit(limit);

export const countDeadLetters = async (db: Db, projectId: string) => (await db.select({ n: count() }).from(deadLetters).where(ofProject(projectId)))[0]?.n ?? 0;

/** Forgets a dead letter once its events are written. */
export const dropDeadLetter = (db: Db, projectId: string, id: string) => db.delete(deadLetters).where(ofProject(projectId, id));

/** Records a replay that failed too: its error now, one more attempt. */
export const failedAgain = (db: Db, projectId: string, id: string, error: string) =>
  db
    .update(deadLetters)
    .set({ error, attempts: sql`${deadLetters.attempts} + 1` })
    .where(ofProject(projectId, id));
