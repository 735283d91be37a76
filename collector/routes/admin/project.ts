import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { projectOf } from '../../storage/keys.ts';
import { openDb } from '../../storage/sql/db.ts';
import { varProblems } from '../../worker-vars.ts';

export const projectRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/project: the project the key belongs to, `{ id, name, access }`, so the console
   * can name it and show a viewer key the pages it may read (`access`: `admin` or `viewer`), and
   * `configProblems`: the Worker's settings holding a value they do not take, each with what it is
   * read as meanwhile (collector/worker-vars.ts), empty when all are right.
   */
  .get('/project', async (c) => {
    const { projectId, kind } = c.get('auth');
    const project = (await projectOf(openDb(c.env.DB), projectId)) ?? { id: projectId, name: projectId };
    return c.json({ ...project, access: kind, configProblems: varProblems(c.env) });
  });
