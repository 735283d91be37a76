import { Hono, type MiddlewareHandler } from 'hono';
import { except } from 'hono/combine';
import { cors } from 'hono/cors';
import { noRoute } from '../shared/allowed-methods.ts';
import { errorBody } from '../shared/error-body.ts';
import { originKnown } from './auth/keys.ts';
import type { AppEnv } from './env.ts';
import { handleError } from './errors.ts';
import { decodableUrl } from './middleware/decodable-url.ts';
import { noSniff } from './middleware/no-sniff.ts';
import { ipRateLimit } from './middleware/rate-limit.ts';
import { EXPOSED_HEADERS, readableRefusal } from './middleware/readable-refusal.ts';
import { noUnstatedQuery } from './middleware/valid-query.ts';
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
  exposeHeaders: EXPOSED_HEADERS,
  maxAge: 600,
});

/**
 * Every request to /v1 but health counts against its address's limit (or a server, admin or viewer key's),
 * preflights included, before anything else is done for it: CORS reads D1 for an origin it has not
 * seen in the last minute.
 */
const limited = ipRateLimit();
/** On /v1/config, what only the widget's read needs: an admin writes it (PUT) from a server or script. */
const exceptPut = (handler: MiddlewareHandler<AppEnv>) => except((c) => c.req.method === 'PUT', handler);

export const app = new Hono<AppEnv>()
  .use(noSniff())
  .use('/v1/events', readableRefusal())
  .use('/v1/config', exceptPut(readableRefusal()))
  .use(
    '/v1/*',
    except((c) => c.req.path === '/v1/health', limited),
  )
  .use('/v1/events', browserCors)
  .use('/v1/config', exceptPut(browserCors))
  // After CORS, so a page reads its 400. A route takes only the query parameters it states, but for
  // the health probe, which answers whatever a monitor adds (a cache-busting parameter).
  .use(
    '/v1/*',
    decodableUrl(),
    except((c) => c.req.path === '/v1/health', noUnstatedQuery()),
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
  const answer = noRoute(app, c.req.method, c.req.path);
  return c.json(errorBody(answer.code, answer.message, answer.field), answer.status, answer.headers);
});
