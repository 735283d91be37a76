/**
 * Where a run's read of its window reached: the largest rowid of each table it read, kept in the
 * run's state. A write stamped inside that window but stored after the read has a larger rowid, so
 * the next run finds it (the late writes of prepare). SQLite gives a new row the largest rowid + 1:
 * deleting the newest rows (erasure, retention, in any project) would let a new row take a rowid the
 * read already passed, so each delete brings what runs kept down to what is left.
 */
export const READ_ROWIDS_STATE = 'readRowids';

export const READ_ROWIDS_TABLES = ['feedback_events', 'traces'] as const;
export type ReadRowids = Partial<Record<(typeof READ_ROWIDS_TABLES)[number], number>>;

const largest = (table: string) => `(select coalesce(max(rowid), 0) from ${table})`;

/** Records, in the run of project ?1 and night ?2, where the tables end now: in the batch of its read. */
export const RECORD_READ_ROWIDS_SQL = `update loop_runs set state = json_set(state, '$.${READ_ROWIDS_STATE}', json_object(${READ_ROWIDS_TABLES.map(
  (t) => `'${t}', ${largest(t)}`,
).join(', ')})) where project_id = ?1 and night = ?2`;

/**
 * After deleting events or traces: the records a next run may read (each project's runs in progress
 * and its latest done one) no higher than where the tables end now.
 */
export const LOWER_READ_ROWIDS_SQL = `update loop_runs set state = json_set(state, ${READ_ROWIDS_TABLES.map(
  (t) => `'$.${READ_ROWIDS_STATE}.${t}', min(state ->> '$.${READ_ROWIDS_STATE}.${t}', ${largest(t)})`,
).join(', ')})
  where (status = 'running' or night = (select max(night) from loop_runs d where d.project_id = loop_runs.project_id and d.status = 'done'))
    and state ->> '$.${READ_ROWIDS_STATE}' is not null and (${READ_ROWIDS_TABLES.map((t) => `state ->> '$.${READ_ROWIDS_STATE}.${t}' > ${largest(t)}`).join(' or ')})`;
