import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { etagOf } from '../../middleware/if-match.ts';
import { versionedWidgetConfigOf } from '../../storage/configs.ts';

export const widgetConfigRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/config: the widget config as GET /v1/config serves it to widgets, for an admin
   * to edit (which the write key's route cannot give: it answers write keys only); its version is
   * the ETag, for PUT /v1/config's If-Match.
   */
  .get('/config', async (c) => {
    const { config, version } = await versionedWidgetConfigOf(c.env.DB, c.get('auth').projectId);
    c.header('ETag', etagOf(version));
    return c.json(config);
  });
