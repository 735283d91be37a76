import type { ReviewItemTrace } from '../../shared/admin-api/review.ts';

/**
 * The traces behind one review item (the same query and chunk), strongest first, at most `limit`:
 * those the item lists, each with what it contributed to the item, from the trace's own row.
 */
export async function reviewItemTraces(d1: D1Database, projectId: string, itemId: string, limit: number): Promise<ReviewItemTrace[]> {
  const { results } = await d1
    .prepare(
      `select l.value ->> 'traceId' as traceId, c.value ->> 'candidate' as candidate, c.value ->> 'weight' as weight, c.value -> 'evidence' as evidence,
         c.value ->> 'rank' as rank, c.value ->> 'score' as score, c.value ->> 'guess' as guess, c.value ->> 'guessWhy' as guessWhy,
         t.query, t.created_at as createdAt, s.weighted_score as weightedScore
       from review_items i cross join json_each(i.strongest) l
       join trace_candidates tc on tc.project_id = i.project_id and tc.trace_id = l.value ->> 'traceId'
       join json_each(tc.candidates) c on c.value ->> 'itemId' = i.item_id
       left join traces t on t.project_id = i.project_id and t.trace_id = tc.trace_id
       left join trace_stats s on s.project_id = i.project_id and s.trace_id = tc.trace_id
       where i.project_id = ?1 and i.item_id = ?2 order by l.key limit ?3`,
    )
    .bind(projectId, itemId, limit)
    .all<Omit<ReviewItemTrace, 'evidence'> & { evidence: string }>();
  return results.map((r) => ({ ...r, evidence: JSON.parse(r.evidence) as string[] }));
}
