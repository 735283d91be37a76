/**
 * A condition for writing what a slice read about a trace (with the project as ?1): only while the
 * trace is still stored, so that one erased (or purged) while the slice ran is not brought back.
 * One lookup on the primary key, in the order the rows come.
 */
export const stillStoredSql = (traceId: string) => `exists (select 1 from traces t where t.project_id = ?1 and t.trace_id = ${traceId})`;

/**
 * An attribution (the JSON `attribution`) keeping, among the turns it was weighed against, only
 * those still stored; `scores` names its list of turns as `json_each` arguments (the JSON, a path).
 */
export const storedTurnsOnlySql = (attribution: string, scores: string) =>
  `json_set(${attribution}, '$.scores', json((select json_group_array(json(c.value)) from json_each(${scores}) c where ${stillStoredSql("c.value ->> 'traceId'")})))`;
