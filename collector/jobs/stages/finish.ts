import { PURGE_BATCH } from './retention.ts';
import type { Stage } from './stage.ts';

/**
 * Empties the run's lists (touched traces, the query keys it mined) and drops the sources it found
 * flooding (users, sessions, addresses) from its state: the run is over, and neither outlives it.
 * A bulk night lists millions of rows: they go PURGE_BATCH a slice, as retention deletes.
 */
export const finish: Stage = {
  name: 'finish',
  async slice({ db, projectId, night }) {
    const r = await db
      .prepare(`delete from loop_touched where rowid in (select rowid from loop_touched where project_id = ? and night = ? limit ${PURGE_BATCH})`)
      .bind(projectId, night)
      .run();
    if (r.meta.changes >= PURGE_BATCH) return { cursor: 'more', counts: { cleared: r.meta.changes } };
    // Null removes the key when the state is saved (a JSON merge patch).
    return { cursor: null, counts: { cleared: r.meta.changes }, state: { flooding: null } };
  },
};
