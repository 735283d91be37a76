import { type SQL, sql } from 'drizzle-orm';
import { utcDay } from '../../shared/time.ts';

/**
 * Adds what a widget reports it dropped to the project's count for the day, when the batch
 * carrying the report stores an event not stored yet. A retry of a stored batch stores none: its
 * report was counted the first time. Runs in the batch's transaction, before its events' insert.
 */
export const addClientDrops = (projectId: string, dropped: number, now: number, eventIds: readonly string[]): SQL => sql`
  insert into client_drops (project_id, day, dropped)
  select ${projectId}, ${utcDay(now)}, ${dropped}
  where exists (
    select 1 from json_each(${JSON.stringify(eventIds)}) as batch
    where not exists (select 1 from feedback_events where project_id = ${projectId} and event_id = batch.value))
  on conflict (project_id, day) do update set dropped = dropped + excluded.dropped`;
