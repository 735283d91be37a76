import { Hono } from 'hono';
import { VERSION } from '../../../shared/version.ts';
import type { AppEnv } from '../../env.ts';

/** GET /v1/health: up, and the database answers. */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  await c.env.DB.prepare('select 1').first();
  return c.json({ status: 'ok', version: VERSION });
});
