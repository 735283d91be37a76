import type { Stage } from './stage.ts';

/** Empties the run's list of touched traces: the run is over. */
export const finish: Stage = {
  name: 'finish',
  async slice({ db, projectId, night }) {
    const r = await db.prepare('delete from loop_touched where project_id = ? and night = ?').bind(projectId, night).run();
    return { cursor: null, counts: { cleared: r.meta.changes } };
  },
};
