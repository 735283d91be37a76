import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './env.ts';
import { originKnown } from './auth/keys.ts';
import { errorBody, handleError } from './errors.ts';
import { configRoutes } from './routes/config.ts';
import { eventRoutes } from './routes/events.ts';
import { healthRoutes } from './routes/health.ts';
import { traceRoutes } from './routes/traces.ts';
import { ipRateLimit } from './middleware/rate-limit.ts';
import { openDb } from './storage/sql/db.ts';

/**
 * Browser-facing routes answer CORS for origins some project allows: a preflight carries no key,
 * so which project's list applies is only checked on the real request (`requireKey`).
 */
const browserCors = cors({
  origin: async (origin, c) => ((await originKnown(openDb(c.env.DB), origin)) ? origin : null),
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['Content-Type', 'Authorization', 'X-Api-Key'],
  exposeHeaders: ['Retry-After'],
  maxAge: 600,
});

export const app = new Hono<AppEnv>()
  .use('/v1/*', async (c, next) => (c.req.path === '/v1/health' ? next() : ipRateLimit()(c, next)))
  .use('/v1/events', browserCors)
  .use('/v1/config', async (c, next) => (c.req.method === 'PUT' ? next() : browserCors(c, next)))
  .route('/v1/health', healthRoutes)
  .route('/v1/events', eventRoutes)
  .route('/v1/traces', traceRoutes)
  .route('/v1/config', configRoutes)
  .notFound((c) => c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}`, 'path'), 404))
  .onError(handleError);
