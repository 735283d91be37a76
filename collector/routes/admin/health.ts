import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../env.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';

export const healthRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/health: the daily loop-health snapshots, newest first (`?days=30`). */
  .get('/health', validQuery(v.object({ days: intParam(1, 730, 30) })), async (c) => {
    const { results } = await c.env.DB.prepare('select day, metrics from health_snapshots where project_id = ? order by day desc limit ?')
      .bind(c.get('auth').projectId, c.get('input').days)
      .all<{ day: string; metrics: string }>();
    const snapshots = results.map((r) => ({ day: r.day, metrics: JSON.parse(r.metrics) as Record<string, number | null> }));
    return c.json({ latest: snapshots[0] ?? null, snapshots });
  });
