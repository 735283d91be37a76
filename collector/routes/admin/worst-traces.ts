import { Hono } from 'hono';
import * as v from 'valibot';
import { label } from '../../../shared/schema/common.ts';
import { DAY_MS } from '../../../shared/time.ts';
import type { AppEnv } from '../../env.ts';
import { intParam, settingParam, validQuery } from '../../middleware/valid-query.ts';
import { settingsOf } from '../../storage/loop-settings.ts';
import { worstTraces } from '../../storage/trace-stats.ts';

const WorstTracesQuery = v.strictObject({
  /** Traces created in the last this many days (seed: 7). */
  days: intParam(1, 3650, 7),
  /** Traces with fewer trusted signals are left out. */
  minSignals: intParam(1, 1000, 1),
  /** Confidence-weighted score below which a trace is listed (default: the project's `badTraceScore`, seed: -0.3). */
  below: settingParam(-1, 1),
  limit: intParam(1, 1000, 200),
  knowledgeBase: v.optional(label(100)),
  intent: v.optional(label(100)),
  model: v.optional(label()),
});

export const worstTraceRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/worst-traces: the seed's ranked list of queries handled badly, with their chunks. */
  .get('/worst-traces', validQuery(WorstTracesQuery), async (c) => {
    const q = c.get('input');
    const { projectId } = c.get('auth');
    const below = q.below ?? (await settingsOf(c.env.DB, projectId)).badTraceScore;
    const traces = await worstTraces(c.env.DB, projectId, { ...q, below, since: Date.now() - q.days * DAY_MS });
    return c.json({ traces });
  });
