import { Hono } from 'hono';
import { VERSION } from '../../../shared/version.ts';
import type { AppEnv } from '../../env.ts';

/**
 * How long a database that answered is taken as up. The probe has no rate limit (a monitor's), so
 * without this anyone could put a D1 query per request on the database the writes share.
 */
export const PROBE_FRESH_MS = 5_000;

/** When this isolate's database last answered; a failed probe is never remembered. */
let answeredAt = Number.NEGATIVE_INFINITY;
/** The probe under way: requests meanwhile wait for it rather than each asking again. */
let probing: Promise<unknown> | undefined;

/** GET /v1/health: up, and the database answers (asked again at most every PROBE_FRESH_MS per isolate). */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const now = Date.now();
  if (now - answeredAt >= PROBE_FRESH_MS) {
    probing ??= c.env.DB.prepare('select 1')
      .first()
      .then(() => {
        answeredAt = now;
      })
      .finally(() => {
        probing = undefined;
      });
    await probing;
  }
  return c.json({ status: 'ok', version: VERSION });
});
