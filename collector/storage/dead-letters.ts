import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { QueuedEvents } from '../ingest-queue/messages.ts';
import { dropReportOf } from './events.ts';
import { deadLetters } from './schema/index.ts';
import type { Db } from './sql/db.ts';
import { notErased } from './sql/erased-traces.ts';

const ofProject = (projectId: string, id?: string) =>
  id === undefined ? eq(deadLetters.projectId, projectId) : and(eq(deadLetters.projectId, projectId), eq(deadLetters.id, id));

/**
 * Keeps a message whose write failed, with that error: once, however often it is delivered, and
 * without its events about answers an erasure deleted (`erased_traces`), which its write would have
 * skipped. Those are left out in this one statement: an erasure landing while it is kept either
 * finds it to take them out of, or left its tombstones for it to skip. Its drop report keeps the key
 * its write gives it. Answers how many events it holds, or nothing when it would hold none.
 */
export async function keepDeadLetter(db: Db, projectId: string, id: string, body: QueuedEvents, error: string, now: number): Promise<number | undefined> {
  const [drop] = dropReportOf(body.rows, body.dropped, body.firstEventId);
  const message = JSON.stringify(drop ? { ...body, firstEventId: drop.firstEventId } : body);
  const left = notErased(projectId, sql.raw("r.value ->> 'traceId'"));
  // Kept as queued unless an event goes; delivered again, the one kept already answers (an erasure may have changed it).
  const [kept] = await db.all<{ events: number }>(sql`
    with m(body) as (select ${message}),
    k(rows) as (select json_group_array(json(r.value) order by r.key) from m, json_each(m.body, '$.rows') r where ${left})
    insert into dead_letters (project_id, id, dead_lettered_at, message, error, attempts)
    select ${projectId}, ${id}, ${now}, iif(json_array_length(k.rows) = json_array_length(m.body, '$.rows'), m.body, json_set(m.body, '$.rows', json(k.rows))), ${error}, 1
    from m, k where json_array_length(k.rows) > 0
    on conflict (project_id, id) do update set attempts = dead_letters.attempts
    returning json_array_length(message, '$.rows') as events`);
  return kept?.events;
}

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
