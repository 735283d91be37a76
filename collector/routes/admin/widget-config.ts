import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { widgetConfigOf } from '../../storage/configs.ts';
import { openDb } from '../../storage/sql/db.ts';

export const widgetConfigRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/config: the widget config as GET /v1/config serves it to widgets, for an admin
   * to edit (which the write key's route cannot give: it answers write keys only).
   */
  .get('/config', async (c) => c.json(await widgetConfigOf(openDb(c.env.DB), c.get('auth').projectId)));
