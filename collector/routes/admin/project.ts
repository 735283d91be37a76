import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { projectOf } from '../../storage/keys.ts';
import { openDb } from '../../storage/sql/db.ts';

export const projectRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/project: the project the key belongs to, `{ id, name, access }`, so the console
   * can name it and show a viewer key the pages it may read (`access`: `admin` or `viewer`).
   */
  .get('/project', async (c) => {
    const { projectId, kind } = c.get('auth');
    const project = (await projectOf(openDb(c.env.DB), projectId)) ?? { id: projectId, name: projectId };
    return c.json({ ...project, access: kind });
  });
