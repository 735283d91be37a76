import { Hono } from 'hono';
import * as v from 'valibot';
import { DAY_MS } from '../../../shared/time.ts';
import type { AppEnv } from '../../env.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { STAGES } from '../../jobs/stages/index.ts';
import { epochMsParam, intParam, validQuery } from '../../middleware/valid-query.ts';
import { listRuns } from '../../storage/loop-runs.ts';

/** How far ahead of the clock a night may be run without `simulate`: a clock a little ahead. */
const AHEAD_MS = DAY_MS;

const NightlyQuery = v.pipe(
  v.strictObject({
    at: epochMsParam(),
    simulate: v.optional(v.picklist(['true'], 'must be true when given')),
  }),
  // A night's retention purges by that night's clock: run ahead of time, it would purge what
  // arrived within its retention. Only a simulation stepping through weeks means that.
  v.forward(
    v.check(
      (q) => q.at === undefined || q.simulate !== undefined || q.at <= Date.now() + AHEAD_MS,
      'is more than a day ahead; add simulate=true for a simulation',
    ),
    ['at'],
  ),
);

export const nightlyRoutes = new Hono<AppEnv>()
  /**
   * POST /v1/admin/nightly: runs tonight's loop for this project now, or continues it. `?at=<epoch
   * ms>` runs the night of that moment instead: catching up a night the cron missed, or, with
   * `simulate=true`, a simulation stepping through weeks ahead of the clock (`npm run loop:eval`).
   */
  .post('/nightly', validQuery(NightlyQuery), async (c) =>
    c.json(await runNightly(c.env, c.get('input').at ?? Date.now(), { projects: [c.get('auth').projectId] })),
  )
  /** GET /v1/admin/runs: the latest runs, with each stage's slices, time and counts. */
  .get('/runs', validQuery(v.strictObject({ limit: intParam(1, 365, 30) })), async (c) => {
    const runs = await listRuns(c.env.DB, c.get('auth').projectId, c.get('input').limit);
    // The stage a run is at, by name (null once done), as the nightly call answers it.
    return c.json({ runs: runs.map(({ state, cursor, stage, ...run }) => ({ ...run, stage: run.status === 'done' ? null : (STAGES[stage]?.name ?? null) })) });
  });
