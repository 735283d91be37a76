import type { ReviewItemTrace } from '../../shared/admin-api/review.ts';

/** The traces behind one review item (the same query and chunk), strongest first, at most `limit`: those the item lists. */
export async function reviewItemTraces(d1: D1Database, projectId: string, itemId: string, limit: number): Promise<ReviewItemTrace[]> {
  const { results } = await d1
    .prepare(
      `select r.value ->> 'traceId' as traceId, r.value ->> 'candidate' as candidate, r.value ->> 'weight' as weight, r.value -> 'evidence' as evidence,
         r.value ->> 'rank' as rank, r.value ->> 'score' as score, r.value ->> 'guess' as guess, r.value ->> 'guessWhy' as guessWhy,
         t.query, t.created_at as createdAt, s.weighted_score as weightedScore
       from review_items i cross join json_each(i.strongest) r
       left join traces t on t.project_id = i.project_id and t.trace_id = r.value ->> 'traceId'
       left join trace_stats s on s.project_id = i.project_id and s.trace_id = r.value ->> 'traceId'
       where i.project_id = ?1 and i.item_id = ?2 order by r.key limit ?3`,
    )
    .bind(projectId, itemId, limit)
    .all<Omit<ReviewItemTrace, 'evidence'> & { evidence: string }>();
  return results.map((r) => ({ ...r, evidence: JSON.parse(r.evidence) as string[] }));
}
