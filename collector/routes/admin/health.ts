import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../env.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';

export const healthRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/health: the daily loop-health snapshots of the `days` days up to the latest
   * night, newest first (`?days=30`), each with the model served that night (`servedModel`, null
   * before the first promotion), and `caughtUp: true` when its night was run after a later one (its
   * figures of the state then, which nothing keeps, are null). Counted back from the latest night rather than the clock, so that
   * nights run ahead (a simulation) or missed show as the days they are.
   */
  .get('/health', validQuery(v.strictObject({ days: intParam(1, 730, 30) })), async (c) => {
    const { results } = await c.env.DB.prepare(
      `select day, metrics from health_snapshots
       where project_id = ?1 and day > date((select max(day) from health_snapshots where project_id = ?1), '-' || ?2 || ' days')
       order by day desc`,
    )
      .bind(c.get('auth').projectId, c.get('input').days)
      .all<{ day: string; metrics: string }>();
    const snapshots = results.map((r) => {
      const {
        servedModel = null,
        caughtUp = false,
        ...metrics
      } = JSON.parse(r.metrics) as Record<string, number | null> & { servedModel?: string | null; caughtUp?: boolean };
      return { day: r.day, servedModel, ...(caughtUp && { caughtUp }), metrics };
    });
    return c.json({ latest: snapshots[0] ?? null, snapshots });
  });
