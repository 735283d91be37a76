import { PURGE_BATCH } from './retention.ts';
import type { Stage } from './stage.ts';

/**
 * Empties the run's lists (touched traces, the query keys it mined, the questions' and answers'
 * scores as it first read them) and drops the sources it found flooding (users, sessions,
 * addresses) from its state: the run is over, and neither outlives it.
 * A bulk night lists millions of rows: they go PURGE_BATCH a slice, as retention deletes.
 */
export const finish: Stage = {
  name: 'finish',
  async slice({ db, projectId, night }) {
    const cleared = await db.batch(
      ['loop_touched', 'loop_query_history', 'loop_trace_history'].map((table) =>
        db
          .prepare(`delete from ${table} where rowid in (select rowid from ${table} where project_id = ? and night = ? limit ${PURGE_BATCH})`)
          .bind(projectId, night),
      ),
    );
    const changes = cleared.reduce((sum, r) => sum + r.meta.changes, 0);
    if (cleared.some((r) => r.meta.changes >= PURGE_BATCH)) return { cursor: 'more', counts: { cleared: changes } };
    // Null removes the key when the state is saved (a JSON merge patch).
    return { cursor: null, counts: { cleared: changes }, state: { flooding: null } };
  },
};
