import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { reviewItem } from '../../storage/review.ts';

/** One trace behind a review item: what it contributed, and the answer it came from. */
export interface ReviewItemTrace {
  traceId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  evidence: string[];
  rank: number;
  score: number;
  guess: string;
  guessWhy: string;
  /** Null once the trace itself is gone (retention, erasure). */
  query: string | null;
  createdAt: number | null;
  /** The trace's confidence-weighted score. */
  weightedScore: number | null;
}

/** The most an item lists; the strongest first. */
const MAX_TRACES = 50;

export const reviewTraceRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/review/:id/traces: the traces behind one item (the same query and chunk), strongest first. */
  .get('/review/:id/traces', async (c) => {
    const { projectId } = c.get('auth');
    const id = c.req.param('id');
    if (!(await reviewItem(c.env.DB, projectId, id))) throw new ApiError(404, { code: 'item_not_found', message: `No review item ${id}`, field: 'id' });
    const { results } = await c.env.DB.prepare(
      `select r.trace_id as traceId, r.candidate, r.weight, r.evidence, r.rank, r.score, r.guess, r.guess_why as guessWhy,
         t.query, t.created_at as createdAt, s.weighted_score as weightedScore
       from review_item_traces r
       left join traces t on t.project_id = r.project_id and t.trace_id = r.trace_id
       left join trace_stats s on s.project_id = r.project_id and s.trace_id = r.trace_id
       where r.project_id = ?1 and r.item_id = ?2 order by r.weight desc, r.trace_id limit ?3`,
    )
      .bind(projectId, id, MAX_TRACES)
      .all<Omit<ReviewItemTrace, 'evidence'> & { evidence: string }>();
    return c.json({ traces: results.map((r) => ({ ...r, evidence: JSON.parse(r.evidence) as string[] })) });
  });
