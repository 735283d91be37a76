/** The key a run's state carries once its retention purged raw rows: the start of the first day it kept. */
export const PURGED_BEFORE_STATE = 'purgedBefore';

/**
 * Before when retention has purged raw rows of the project ?1, in epoch ms (0 before it ever did),
 * as SQL: the latest cutoff any run reached, so a cutoff moved back by a longer retention setting
 * still counts the days already purged as purged.
 */
export const PURGED_BEFORE_SQL = `(select coalesce(max(r.state ->> '$.${PURGED_BEFORE_STATE}'), 0) from loop_runs r where r.project_id = ?1)`;

/**
 * Whether the UTC day `day` (SQL, `YYYY-MM-DD`) is still whole, retention having purged none of
 * its raw rows: only such a day is counted again from what is stored.
 */
export const notPurgedDaySql = (day: string) => `unixepoch(${day}) * 1000 >= ${PURGED_BEFORE_SQL}`;
