import { Hono } from 'hono';
import * as v from 'valibot';
import { DAY_MS } from '../../../shared/time.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
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
  // A night far ahead takes that night's place (its eval-set week, its health day): only a
  // simulation stepping through weeks means that. Retention goes by the real clock either way.
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
   * A 409 while another invocation (the cron, another call) runs a night of this project, this one
   * or another: nothing is run.
   */
  .post('/nightly', validQuery(NightlyQuery), async (c) => {
    const wallClock = Date.now();
    // Simulations too purge by the real clock: their rows arrive at the real time, so a simulated
    // clock past their retention would purge the week just sent.
    // A client that hangs up would end the invocation with it, leaving the project held until the
    // lease lapses: handed to waitUntil, the run goes on, starts no slice past a few seconds after
    // the hang-up (the request's signal, `enable_request_signal` in wrangler.toml), and lets go
    // within the 30 s Cloudflare keeps such work going once the client has gone.
    const running = runNightly(c.env, c.get('input').at ?? wallClock, { projects: [c.get('auth').projectId], wallClock, hangup: c.req.raw.signal });
    c.executionCtx.waitUntil(running.catch(() => undefined));
    const summary = await running;
    const { heldBy, heldUntil } = summary.runs[0] ?? {};
    if (heldBy !== undefined && heldUntil !== undefined) {
      throw new ApiError(409, {
        code: 'nightly_in_progress',
        message: `Night ${heldBy}'s run is in progress in another invocation (the cron's, or another call's), and a project runs one night at a time: it holds the project until ${new Date(heldUntil).toISOString()}, longer while it goes on, and lets go when that invocation ends; try night ${summary.night} again then`,
      });
    }
    return c.json(summary);
  })
  /** GET /v1/admin/runs: the latest runs, with each stage's slices, time and counts. */
  .get('/runs', validQuery(v.strictObject({ limit: intParam(1, 365, 30) })), async (c) => {
    const runs = await listRuns(c.env.DB, c.get('auth').projectId, c.get('input').limit);
    // The stage a run is at, by name (null once done), as the nightly call answers it.
    return c.json({ runs: runs.map(({ state, cursor, stage, ...run }) => ({ ...run, stage: run.status === 'done' ? null : (STAGES[stage]?.name ?? null) })) });
  });
