import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../env.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { listRuns } from '../../storage/loop-runs.ts';

export const nightlyRoutes = new Hono<AppEnv>()
  /** POST /v1/admin/nightly: runs tonight's loop for this project now, or continues it. */
  .post('/nightly', async (c) => c.json(await runNightly(c.env, Date.now(), { projectId: c.get('auth').projectId })))
  /** GET /v1/admin/runs: the latest runs, with each stage's slices, time and counts. */
  .get('/runs', validQuery(v.object({ limit: intParam(1, 365, 30) })), async (c) => {
    const runs = await listRuns(c.env.DB, c.get('auth').projectId, c.get('input').limit);
    return c.json({ runs: runs.map(({ state, cursor, ...run }) => run) });
  });
