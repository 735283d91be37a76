import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../env.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { listRuns } from '../../storage/loop-runs.ts';

const NightlyQuery = v.object({
  at: v.optional(v.pipe(v.string(), v.regex(/^\d{13}$/, 'must be epoch milliseconds'), v.transform(Number))),
});

export const nightlyRoutes = new Hono<AppEnv>()
  /**
   * POST /v1/admin/nightly: runs tonight's loop for this project now, or continues it. `?at=<epoch
   * ms>` runs the night of that moment instead: catching up a night the cron missed, or a
   * simulation stepping through weeks (`npm run loop:eval`).
   */
  .post('/nightly', validQuery(NightlyQuery), async (c) =>
    c.json(await runNightly(c.env, c.get('input').at ?? Date.now(), { projectId: c.get('auth').projectId })),
  )
  /** GET /v1/admin/runs: the latest runs, with each stage's slices, time and counts. */
  .get('/runs', validQuery(v.object({ limit: intParam(1, 365, 30) })), async (c) => {
    const runs = await listRuns(c.env.DB, c.get('auth').projectId, c.get('input').limit);
    return c.json({ runs: runs.map(({ state, cursor, ...run }) => run) });
  });
