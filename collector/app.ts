import { type Context, Hono } from 'hono';
import { except } from 'hono/combine';
import { cors } from 'hono/cors';
import { allowedMethods } from './allowed-methods.ts';
import { originKnown } from './auth/keys.ts';
import type { AppEnv } from './env.ts';
import { errorBody, handleError } from './errors.ts';
import { ipRateLimit } from './middleware/rate-limit.ts';
import { adminRoutes } from './routes/admin/index.ts';
import { consoleRoutes } from './routes/console/index.ts';
import { configRoutes } from './routes/v1/config.ts';
import { eventRoutes } from './routes/v1/events.ts';
import { healthRoutes } from './routes/v1/health.ts';
import { rerankRoutes } from './routes/v1/rerank.ts';
import { rerankerRoutes } from './routes/v1/reranker.ts';
import { traceRoutes } from './routes/v1/traces.ts';
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

/** Every request to /v1 but health counts against its address's limit, preflights included (each may read D1 for its origin). */
const limited = ipRateLimit();
const preflight = (c: Context) => c.req.method === 'OPTIONS';

export const app = new Hono<AppEnv>()
  // A preflight is counted before CORS answers it; any other request after CORS has run, so that
  // its 429 carries CORS headers and the widget can read Retry-After.
  .use(
    '/v1/*',
    except((c) => !preflight(c) || c.req.path === '/v1/health', limited),
  )
  .use('/v1/events', browserCors)
  // Only the widget reads the config from a browser; an admin writes it from a server or script.
  .use(
    '/v1/config',
    except((c) => c.req.method === 'PUT', browserCors),
  )
  .use(
    '/v1/*',
    except((c) => preflight(c) || c.req.path === '/v1/health', limited),
  )
  .route('/v1/health', healthRoutes)
  .route('/v1/events', eventRoutes)
  .route('/v1/traces', traceRoutes)
  .route('/v1/config', configRoutes)
  .route('/v1/reranker', rerankerRoutes)
  .route('/v1/rerank', rerankRoutes)
  .route('/v1/admin', adminRoutes)
  .route('/admin', consoleRoutes)
  .onError(handleError);

app.notFound((c) => {
  const allow = allowedMethods(app, c.req.path);
  if (!allow.length) return c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}`, 'path'), 404);
  const message = `${c.req.path} answers ${allow.join(', ')}, not ${c.req.method}`;
  return c.json(errorBody('method_not_allowed', message, 'method'), 405, { allow: allow.join(', ') });
});
