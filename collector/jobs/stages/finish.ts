import type { Stage } from './stage.ts';

/**
 * Empties the run's lists (touched traces, the query keys it mined) and drops the sources it found
 * flooding (users, sessions, addresses) from its state: the run is over, and neither outlives it.
 */
export const finish: Stage = {
  name: 'finish',
  async slice({ db, projectId, night }) {
    const r = await db.prepare('delete from loop_touched where project_id = ? and night = ?').bind(projectId, night).run();
    // Undefined is left out when the run's state is saved as JSON.
    return { cursor: null, counts: { cleared: r.meta.changes }, state: { flooding: undefined } };
  },
};
