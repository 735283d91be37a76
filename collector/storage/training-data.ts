/**
 * What retraining reads from D1: confirmed judgements on training queries (held-out queries
 * belong to the eval sets), the candidates each was answered with, trusted citation clicks by
 * rank for the position-debiased engagement feature, and the latest eval sets with their
 * candidates for the gate.
 */
import type { Candidate } from '../../shared/reranker/candidate.ts';
import type { Confirmed, EngagementRow, TrainingData } from '../../shared/training/data.ts';
import type { EvalQuery } from '../../shared/training/gate.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { LOW_CONFIDENCE } from '../loop/noise.ts';
import { JOIN_CHUNK_TEXT } from './sql/chunk-text.ts';
import { latestTraceOfKeys } from './trace-stats.ts';

/** Engagement older than this is left out: a month says how users treat today's chunks. */
export const ENGAGEMENT_WINDOW_DAYS = 28;
/** Citations a trace shows: the top of its last stage, as chunk_stats counts them. */
const SHOWN_PER_TRACE = 3;

/** Retrieval's candidates (stage `retrieved`) of each trace, in rank order. */
async function candidatesOf(d1: D1Database, projectId: string, traceIds: readonly string[]): Promise<Map<string, Candidate[]>> {
  const out = new Map<string, Candidate[]>();
  for (let i = 0; i < traceIds.length; i += 500) {
    const { results } = await d1
      .prepare(
        `select c.trace_id as traceId, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.score, ct.text
         from trace_chunks c ${JOIN_CHUNK_TEXT}
         where c.project_id = ?1 and c.stage = 'retrieved' and c.trace_id in (select value from json_each(?2)) order by c.trace_id, c.rank`,
      )
      .bind(projectId, JSON.stringify(traceIds.slice(i, i + 500)))
      .all<Candidate & { traceId: string }>();
    for (const { traceId, ...c } of results) out.set(traceId, [...(out.get(traceId) ?? []), c]);
  }
  return out;
}

/** Reviewers' confirmed judgements on training queries, with where each item's traces came from. */
export async function confirmedExamples(d1: D1Database, projectId: string): Promise<Confirmed[]> {
  const origins = (column: string, table: string, join: string) =>
    `(select json_group_array(distinct x.${column}) from review_item_traces r join ${table} x on x.project_id = r.project_id and x.trace_id = r.trace_id ${join}
      where r.project_id = i.project_id and r.item_id = i.item_id and x.${column} is not null)`;
  const { results } = await d1
    .prepare(
      `select i.query_key as queryKey, i.query, i.chunk_id as chunkId, i.source_doc_id as sourceDocId, i.verdict,
         ${origins('session_id', 'traces', '')} as sessions, ${origins('user_id_hash', 'traces', '')} as users, ${origins('ip_hash', 'feedback_events', '')} as ips
       from review_items i where i.project_id = ? and i.status = 'answered' and i.verdict in ('relevant', 'not_relevant')`,
    )
    .bind(projectId)
    .all<{ queryKey: string; query: string; chunkId: string; sourceDocId: string; verdict: string; sessions: string; users: string; ips: string }>();
  return results
    .filter((r) => !isHeldOut(r.queryKey))
    .map((r) => ({
      queryKey: r.queryKey,
      query: r.query,
      chunkId: r.chunkId,
      sourceDocId: r.sourceDocId,
      relevance: r.verdict === 'relevant' ? 1 : 0,
      origins: { sessions: JSON.parse(r.sessions), users: JSON.parse(r.users), ips: JSON.parse(r.ips) },
    }));
}

/**
 * Trusted citation clicks in the window with the rank the chunk had where the user saw it (the
 * trace's last stage), and each engaged chunk's impressions. Held-out queries' clicks stay out,
 * so the gate never judges a model on engagement it learned from.
 */
async function engagement(d1: D1Database, projectId: string, since: number, trainingKeys: ReadonlySet<string>) {
  const { results } = await d1
    .prepare(
      `select s.query_key as queryKey, json_extract(e.detail, '$.chunkId') as chunkId,
         coalesce((select c.rank from trace_chunks c where c.project_id = e.project_id and c.trace_id = e.trace_id and c.stage = 'reranked' and c.chunk_id = json_extract(e.detail, '$.chunkId')),
                  (select c.rank from trace_chunks c where c.project_id = e.project_id and c.trace_id = e.trace_id and c.stage = 'retrieved' and c.chunk_id = json_extract(e.detail, '$.chunkId'))) as rank
       from feedback_events e
       join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
       join trace_stats s on s.project_id = e.project_id and s.trace_id = e.trace_id
       where e.project_id = ?1 and e.signal_type = 'citation_click' and e.superseded = 0 and a.confidence >= ?2 and s.created_at >= ?3`,
    )
    .bind(projectId, LOW_CONFIDENCE, since)
    .all<{ queryKey: string; chunkId: string | null; rank: number | null }>();
  const totals = new Map<string, EngagementRow>();
  const own = new Map<string, EngagementRow>();
  for (const r of results) {
    if (!r.chunkId || !r.rank || isHeldOut(r.queryKey)) continue;
    const key = `${r.chunkId}\u0000${r.rank}`;
    const t = totals.get(key) ?? { chunkId: r.chunkId, rank: r.rank, shown: 0, engaged: 0 };
    t.engaged++;
    totals.set(key, t);
    if (trainingKeys.has(r.queryKey)) {
      const k = `${r.queryKey}\u0000${key}`;
      const o = own.get(k) ?? { queryKey: r.queryKey, chunkId: r.chunkId, rank: r.rank, shown: 0, engaged: 0 };
      o.engaged++;
      own.set(k, o);
    }
  }
  // Impressions of the engaged chunks, rank unknown (rank 0): enough for their rates.
  const engaged = [...new Set([...totals.values()].map((r) => r.chunkId))];
  const shown: EngagementRow[] = [];
  for (let i = 0; i < engaged.length; i += 500) {
    const { results: rows } = await d1
      .prepare(`select chunk_id as chunkId, top_ranked as shown from chunk_stats where project_id = ?1 and chunk_id in (select value from json_each(?2))`)
      .bind(projectId, JSON.stringify(engaged.slice(i, i + 500)))
      .all<{ chunkId: string; shown: number }>();
    for (const r of rows) shown.push({ chunkId: r.chunkId, rank: 0, shown: r.shown, engaged: 0 });
  }
  const traces = await d1
    .prepare('select count(*) as n from trace_stats where project_id = ? and created_at >= ?')
    .bind(projectId, since)
    .first<{ n: number }>();
  return { engagement: [...totals.values(), ...shown], queryEngagement: [...own.values()], shownByRank: new Array(SHOWN_PER_TRACE).fill(traces?.n ?? 0) };
}

/** The latest version of each eval layer, each query with its trace's candidates. */
export async function evalQueries(d1: D1Database, projectId: string): Promise<EvalQuery[]> {
  const { results } = await d1
    .prepare(
      `select layer, query, trace_id as traceId, judgements from eval_items e where project_id = ?1
         and version = (select max(version) from eval_sets s where s.project_id = ?1 and s.layer = e.layer)`,
    )
    .bind(projectId)
    .all<{ layer: string; query: string; traceId: string; judgements: string }>();
  const candidates = await candidatesOf(d1, projectId, [...new Set(results.map((r) => r.traceId))]);
  return results.map((r) => ({ layer: r.layer, query: r.query, candidates: candidates.get(r.traceId) ?? [], judgements: JSON.parse(r.judgements) }));
}

export async function trainingData(d1: D1Database, projectId: string, now: number, confirmed?: Confirmed[]): Promise<TrainingData> {
  confirmed ??= await confirmedExamples(d1, projectId);
  const keys = [...new Set(confirmed.map((c) => c.queryKey))];
  const latest = await latestTraceOfKeys(d1, projectId, keys);
  const candidates = await candidatesOf(
    d1,
    projectId,
    [...latest.values()].map((t) => t.traceId),
  );
  const lists = keys.flatMap((key) => {
    const t = latest.get(key);
    const c = t && candidates.get(t.traceId);
    return t && c ? [{ queryKey: key, query: t.query, candidates: c }] : [];
  });
  const since = now - ENGAGEMENT_WINDOW_DAYS * 86_400_000;
  return { confirmed, lists, ...(await engagement(d1, projectId, since, new Set(keys))) };
}
