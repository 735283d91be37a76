import { Hono } from 'hono';
import { viewerReadsFigures } from '../../auth/viewer-access.ts';
import type { AppEnv } from '../../env.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { chunkRoutes } from './chunks.ts';
import { deadLetterRoutes } from './dead-letters.ts';
import { documentRoutes } from './documents.ts';
import { evalSetRoutes } from './eval-sets.ts';
import { evalSuiteRoutes } from './eval-suite.ts';
import { healthRoutes } from './health.ts';
import { modelRoutes } from './models.ts';
import { nightlyRoutes } from './nightly.ts';
import { projectRoutes } from './project.ts';
import { reviewRoutes } from './review.ts';
import { reviewTraceRoutes } from './review-traces.ts';
import { settingsRoutes } from './settings.ts';
import { traceViewRoutes } from './trace-view.ts';
import { userRoutes } from './users.ts';
import { widgetConfigRoutes } from './widget-config.ts';
import { worstTraceRoutes } from './worst-traces.ts';

/**
 * /v1/admin/*: reading and steering the loop. The key is checked once, here, for every route of
 * the sub-app, so no route can forget it: an admin key for all, a viewer key for the figures
 * alone. (GET /v1/traces/:id and PUT /v1/config are admin-only too, at the paths the API has
 * always had.) A route takes only the query parameters its `validQuery` states (app.ts): none without one.
 */
export const adminRoutes = new Hono<AppEnv>()
  .use(requireKey('admin', 'viewer'), viewerReadsFigures())
  .route('/', projectRoutes)
  .route('/', nightlyRoutes)
  .route('/', worstTraceRoutes)
  .route('/', reviewRoutes)
  .route('/', reviewTraceRoutes)
  .route('/', traceViewRoutes)
  .route('/', documentRoutes)
  .route('/', chunkRoutes)
  .route('/', evalSetRoutes)
  .route('/', evalSuiteRoutes)
  .route('/', healthRoutes)
  .route('/', settingsRoutes)
  .route('/', userRoutes)
  .route('/', modelRoutes)
  .route('/', widgetConfigRoutes)
  .route('/', deadLetterRoutes);
