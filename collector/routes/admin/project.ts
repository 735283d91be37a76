import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { projectOf } from '../../storage/keys.ts';
import { openDb } from '../../storage/sql/db.ts';

export const projectRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/project: the project the admin key belongs to, `{ id, name }`, so the console can name it. */
  .get('/project', async (c) => {
    const { projectId } = c.get('auth');
    return c.json((await projectOf(openDb(c.env.DB), projectId)) ?? { id: projectId, name: projectId });
  });
