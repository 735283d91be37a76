import type { WorstTrace } from '../../shared/admin-api/traces.ts';
import { clearlyBadSql } from './sql/clear-scores.ts';
import { seenStageSql } from './sql/seen-stage.ts';

export interface WorstTracesFilter {
  since: number;
  minSignals: number;
  below: number;
  limit: number;
  knowledgeBase?: string;
  intent?: string;
  model?: string;
}

/** The worst traces of a window (the seed's query, on the nightly aggregates), worst first. */
export async function worstTraces(d1: D1Database, projectId: string, f: WorstTracesFilter): Promise<WorstTrace[]> {
  const { results } = await d1
    .prepare(
      `select s.trace_id as traceId, t.query, s.created_at as createdAt, s.knowledge_base as knowledgeBase, s.intent, s.model, s.score,
         s.weighted_score as weightedScore, s.confidence, s.live_signals as signals, s.trusted_signals as trustedSignals,
         s.explicit_signals as explicitSignals, s.implicit_signals as implicitSignals,
         (select json_group_array(chunk_id) from (select chunk_id from trace_chunks c where c.project_id = s.project_id and c.trace_id = s.trace_id
            and c.stage = ${seenStageSql('s.project_id', 's.trace_id')} order by rank)) as chunkIds
       from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
       where s.project_id = ?1 and s.created_at >= ?2 and s.trusted_signals >= ?3 and ${clearlyBadSql('s.weighted_score', '?4')}
         and (?5 is null or s.knowledge_base = ?5) and (?6 is null or s.intent = ?6) and (?7 is null or s.model = ?7)
       order by s.weighted_score asc, s.trusted_signals desc limit ?8`,
    )
    .bind(projectId, f.since, f.minSignals, f.below, f.knowledgeBase ?? null, f.intent ?? null, f.model ?? null, f.limit)
    .all<Omit<WorstTrace, 'chunkIds'> & { chunkIds: string }>();
  return results.map((r) => ({ ...r, chunkIds: JSON.parse(r.chunkIds) as string[] }));
}

/**
 * The latest trace of each query key (its typed query and candidates stand for the question), of
 * those made by `until` when given: a later answer leaves what a read of that moment gives as it was.
 * Of those that retrieved something: an answer retrieval found nothing for (a threshold, an outage)
 * has no candidates to stand for it, and would leave the question's judgements with none.
 */
export async function latestTraceOfKeys(
  d1: D1Database,
  projectId: string,
  keys: readonly string[],
  until: number | null = null,
): Promise<Map<string, { traceId: string; query: string }>> {
  const out = new Map<string, { traceId: string; query: string }>();
  for (let i = 0; i < keys.length; i += 500) {
    const { results } = await d1
      .prepare(
        `select s.query_key as queryKey, s.trace_id as traceId, t.query from (
           select query_key, trace_id, row_number() over (partition by query_key order by created_at desc, trace_id) as n
           from trace_stats s where project_id = ?1 and query_key in (select value from json_each(?2)) and (?3 is null or created_at <= ?3)
             and exists (select 1 from trace_chunks c where c.project_id = ?1 and c.trace_id = s.trace_id and c.stage = 'retrieved')) s
         join traces t on t.project_id = ?1 and t.trace_id = s.trace_id where s.n = 1`,
      )
      .bind(projectId, JSON.stringify(keys.slice(i, i + 500)), until)
      .all<{ queryKey: string; traceId: string; query: string }>();
    for (const r of results) out.set(r.queryKey, r);
  }
  return out;
}
