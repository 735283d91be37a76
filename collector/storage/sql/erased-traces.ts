import { type SQL, sql } from 'drizzle-orm';

/**
 * The rule of erased traces' tombstones (`erased_traces`): erasure records the ids it deleted, and
 * every write of events or traces, and every dead letter kept, skips rows about one, in its own
 * statement (no query more).
 */

/** Records a batch of erased trace ids: the project ?1, the ids ?2 (a JSON array), erased at ?3. */
export const recordErasedSql = `insert into erased_traces (project_id, trace_id, erased_at)
  select ?1, value, ?3 from json_each(?2) where true
  on conflict (project_id, trace_id) do update set erased_at = excluded.erased_at`;

/** Whether the trace `traceId` of the project `projectId` (SQL expressions or values) was not erased. */
export const notErased = (projectId: SQL | string, traceId: SQL) =>
  sql`not exists (select 1 from erased_traces x where x.project_id = ${projectId} and x.trace_id = ${traceId})`;
