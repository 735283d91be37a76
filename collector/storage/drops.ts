import { type SQL, sql } from 'drizzle-orm';
import { utcDay } from '../../shared/time.ts';

/**
 * Records what a widget reports it dropped, keyed by the first valid event of the batch carrying
 * the report. That batch sent again (its answer was lost), or the same count sent by another tab
 * from the shared outbox, begins with the same event: the report counts once, as the most any sending
 * of it said (a retry carries the drops since, too). The widget forgets its count once the
 * collector took some event of the batch, new or stored already (by a page-hide beacon, which
 * carries no report). Runs in the batch's transaction.
 */
export const addClientDrops = (projectId: string, dropped: number, now: number, firstEventId: string): SQL => sql`
  insert into client_drop_reports (project_id, event_id, day, dropped)
  values (${projectId}, ${firstEventId}, ${utcDay(now)}, ${dropped})
  on conflict (project_id, event_id) do update set dropped = max(dropped, excluded.dropped)`;
