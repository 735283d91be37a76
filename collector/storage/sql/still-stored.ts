/**
 * A condition for writing what a slice read about a trace (with the project as ?1): only while the
 * trace is still stored, so that one erased (or purged) while the slice ran is not brought back.
 * One lookup on the primary key, in the order the rows come.
 */
export const stillStoredSql = (traceId: string) => `exists (select 1 from traces t where t.project_id = ?1 and t.trace_id = ${traceId})`;
