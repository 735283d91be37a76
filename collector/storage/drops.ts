import { sql } from 'drizzle-orm';
import { utcDay } from '../../shared/time.ts';
import { clientDrops } from './schema/index.ts';
import type { Db } from './sql/db.ts';

/** Adds what a widget reports it dropped to the project's count for the day. */
export async function addClientDrops(db: Db, projectId: string, dropped: number, now: number): Promise<void> {
  const day = utcDay(now);
  await db
    .insert(clientDrops)
    .values({ projectId, day, dropped })
    .onConflictDoUpdate({ target: [clientDrops.projectId, clientDrops.day], set: { dropped: sql`${clientDrops.dropped} + ${dropped}` } });
}
