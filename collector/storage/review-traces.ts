import type { ReviewItemTrace } from '../../shared/admin-api/review.ts';
import { evidenceFields } from './stored-evidence.ts';
import { guessWhyFields } from './stored-guess-why.ts';

/**
 * The traces behind one review item (the same query and chunk), strongest first, at most `limit`,
 * each with the corrections about it: the multi-turn attribution's answer, so a correction typed
 * under a follow-up about the answer before shows with that one (the night's verdict), not where it
 * was typed; one not judged yet shows where it was typed.
 */
export async function reviewItemTraces(d1: D1Database, projectId: string, itemId: string, limit: number): Promise<ReviewItemTrace[]> {
  const { results } = await d1
    .prepare(
      `select r.trace_id as traceId, r.candidate, r.weight, r.evidence, r.rank, r.score, r.guess, r.guess_why as guessWhy,
         t.query, t.created_at as createdAt, s.weighted_score as weightedScore,
         (select json_group_array(text) from (
            select e.detail ->> '$.text' as text from feedback_events e
              left join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
            where e.project_id = r.project_id and e.trace_id = r.trace_id and e.signal_type = 'correction' and e.superseded = 0
              and (a.attributed_trace_id is null or a.attributed_trace_id = e.trace_id)
            union all
            select e.detail ->> '$.text' from event_assessments a
              join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
            where a.project_id = r.project_id and a.attributed_trace_id = r.trace_id and a.trace_id <> r.trace_id
              and e.signal_type = 'correction' and e.superseded = 0)) as corrections
       from review_item_traces r
       left join traces t on t.project_id = r.project_id and t.trace_id = r.trace_id
       left join trace_stats s on s.project_id = r.project_id and s.trace_id = r.trace_id
       where r.project_id = ?1 and r.item_id = ?2 order by r.weight desc, r.trace_id limit ?3`,
    )
    .bind(projectId, itemId, limit)
    .all<Omit<ReviewItemTrace, 'evidence' | 'evidenceCodes' | 'guessWhyCode' | 'corrections'> & { evidence: string; corrections: string }>();
  return results.map((r) => ({ ...r, ...evidenceFields(r.evidence), ...guessWhyFields(r.guessWhy), corrections: JSON.parse(r.corrections) as string[] }));
}
