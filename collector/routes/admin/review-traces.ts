import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { reviewItem } from '../../storage/review.ts';
import { reviewItemTraces } from '../../storage/review-traces.ts';
import { itemNotFound } from './review.ts';

/** The most an item lists; the strongest first. */
const MAX_TRACES = 50;

export const reviewTraceRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/review/:id/traces: the traces behind one item (the same query and chunk), strongest first. */
  .get('/review/:id/traces', async (c) => {
    const { projectId } = c.get('auth');
    const id = c.req.param('id');
    if (!(await reviewItem(c.env.DB, projectId, id))) throw itemNotFound(id);
    return c.json({ traces: await reviewItemTraces(c.env.DB, projectId, id, MAX_TRACES) });
  });
