/**
 * What retraining reads from D1: confirmed judgements on training queries (held-out queries
 * belong to the eval sets), the candidates each was answered with, impressions and trusted
 * engagement by rank for the position-debiased engagement feature, and the latest eval sets with their
 * candidates for the gate.
 */
import type { Candidate } from '../../shared/reranker/candidate.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { Confirmed, EngagementRow, TrainingData } from '../../shared/training/data.ts';
import type { EvalQuery } from '../../shared/training/gate.ts';
import { consolidate } from '../../shared/training/train.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { ENGAGEMENT_WEIGHT } from '../loop/mining.ts';
import { LOW_CONFIDENCE } from '../loop/noise.ts';
import { keysOf, suiteEvalQueries, suiteKeysStatement } from './eval-suite.ts';
import { chunkTextsOf, TEXT_VERSION } from './sql/chunk-text.ts';
import { focusedDwellSql } from './sql/focused-dwell.ts';
import { assessedSql, assessedUntilSql, EVENT_CHUNK, JOIN_VERDICT, NAMES_CHUNK, VERDICT } from './sql/verdict.ts';
import { latestTraceOfKeys } from './trace-stats.ts';

/** Engagement older than this is left out: a month says how users treat today's chunks. */
export const ENGAGEMENT_WINDOW_DAYS = 28;

/**
 * Chunk texts by chunk id and document version, read once each: the same chunk is a candidate in
 * many lists (at a few thousand judgements, about nine times on average), and a text read per
 * candidate was most of what retraining held in memory. One per retraining, shared by its readers.
 */
export type ChunkTexts = Map<string, string>;

const textKey = (chunkId: string, version: string) => `${chunkId}\u0000${version}`;

/** Retrieval's candidates (stage `retrieved`) of each trace, in rank order, with their texts from `texts` (read into it when missing). */
async function candidatesOf(d1: D1Database, projectId: string, traceIds: readonly string[], texts: ChunkTexts): Promise<Map<string, Candidate[]>> {
  const rows: (Omit<Candidate, 'text'> & { traceId: string; version: string })[] = [];
  for (let i = 0; i < traceIds.length; i += 500) {
    const { results } = await d1
      .prepare(
        `select c.trace_id as traceId, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.score, ${TEXT_VERSION} as version
         from trace_chunks c where c.project_id = ?1 and c.stage = 'retrieved' and c.trace_id in (select value from json_each(?2)) order by c.trace_id, c.rank`,
      )
      .bind(projectId, JSON.stringify(traceIds.slice(i, i + 500)))
      .all<Omit<Candidate, 'text'> & { traceId: string; version: string }>();
    rows.push(...results);
  }
  const missing = [...new Map(rows.filter((r) => !texts.has(textKey(r.chunkId, r.version))).map((r) => [textKey(r.chunkId, r.version), r])).values()];
  for (const r of await chunkTextsOf(d1, projectId, missing)) texts.set(textKey(r.chunkId, r.version), r.text);
  const out = new Map<string, Candidate[]>();
  for (const { traceId, version, ...c } of rows) {
    // A chunk whose text is gone (purged) is left out, as the join to its text left it out.
    const text = texts.get(textKey(c.chunkId, version));
    if (text === undefined) continue;
    const list = out.get(traceId);
    if (list) list.push({ ...c, text });
    else out.set(traceId, [{ ...c, text }]);
  }
  return out;
}

/** A question of the curated eval suite is a test question: what reviewers answer on it never trains. */
const NOT_CURATED = (column: string) => `${column} not in (select query_key from eval_suite where project_id = ?1)`;

/**
 * How many examples retraining would have: confirmed items on training questions, one per question
 * and chunk. The count the nightly retraining holds against `trainingMinConfirmed`.
 */
export async function trainingExampleCount(d1: D1Database, projectId: string): Promise<number> {
  return (await examplesAnsweredBy(d1, projectId, null)).examples;
}

/**
 * Those examples, and how many of them had every answer in the data a training read at
 * `dataReadAt` (a model trained then saw them as they stand; with `dataReadAt` null, every one).
 */
export async function examplesAnsweredBy(d1: D1Database, projectId: string, dataReadAt: number | null): Promise<{ examples: number; answeredBy: number }> {
  const { results } = await d1
    .prepare(
      `select query_key as queryKey, chunk_id as chunkId, verdict, answered_at as answeredAt from review_items
       where project_id = ?1 and status = 'answered' and verdict in ('relevant', 'not_relevant') and ${NOT_CURATED('query_key')}`,
    )
    .bind(projectId)
    .all<{ queryKey: string; chunkId: string; verdict: string; answeredAt: number }>();
  const training = results.filter((r) => !isHeldOut(r.queryKey)).map((r) => ({ ...r, relevance: r.verdict === 'relevant' ? (1 as const) : (0 as const) }));
  const examples = consolidate(training);
  const pair = (r: { queryKey: string; chunkId: string }) => `${r.queryKey}\u0000${r.chunkId}`;
  const answeredSince = new Set(dataReadAt === null ? [] : training.filter((r) => r.answeredAt > dataReadAt).map(pair));
  return { examples: examples.length, answeredBy: dataReadAt === null ? examples.length : examples.filter((e) => !answeredSince.has(pair(e))).length };
}

/**
 * Whether an answer that makes a training example (as `examplesAnsweredBy` counts them) was given
 * or changed after a training read its data at `dataReadAt`.
 */
export async function exampleAnsweredAfter(d1: D1Database, projectId: string, dataReadAt: number): Promise<boolean> {
  const { results } = await d1
    .prepare(
      `select distinct query_key as queryKey from review_items
       where project_id = ?1 and status = 'answered' and answered_at > ?2 and verdict in ('relevant', 'not_relevant') and ${NOT_CURATED('query_key')}`,
    )
    .bind(projectId, dataReadAt)
    .all<{ queryKey: string }>();
  return results.some((r) => !isHeldOut(r.queryKey));
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
       from review_items i where i.project_id = ?1 and i.status = 'answered' and i.verdict in ('relevant', 'not_relevant') and ${NOT_CURATED('i.query_key')}`,
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

/** Chunks at most this far down what the model saw can be cited, and so shown to the user. */
const MAX_CITED_RANK = 20;
/** When an answer carries no `[n]` markers, its top chunks stand for what the user was shown. */
const SHOWN_WITHOUT_MARKERS = 3;
/**
 * Trusted engagement with a cited source, by kind: the same weights mining gives them, so a
 * focused read or a copy (far likelier on a source that answers) counts for more than a click.
 */
const ENGAGED = `case e.signal_type when 'citation_click' then ${ENGAGEMENT_WEIGHT.click}
  when 'citation_dwell' then case when ${focusedDwellSql()} then ${ENGAGEMENT_WEIGHT.dwell} else 0 end
  when 'copy_source' then ${ENGAGEMENT_WEIGHT.copy} else 0 end`;

/** The window's traces (?2 to ?3) with the stage the model saw (reranked when a reranker ran) and their answers. */
const WINDOW_TRACES = `select s.trace_id, s.query_key, t.answer,
    case when exists (select 1 from trace_chunks x where x.project_id = ?1 and x.trace_id = s.trace_id and x.stage = 'reranked') then 'reranked' else 'retrieved' end as stage
  from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
  where s.project_id = ?1 and s.created_at >= ?2 and s.created_at <= ?3`;

/**
 * Impressions and trusted engagement in the window, per query key, chunk and the rank the chunk
 * had in what the model saw. A chunk is shown when the answer cites it (`[n]` is the n-th chunk
 * the model saw); an answer without markers shows its top chunks. Impressions and engagement come
 * from the same traces, so rates are rates; held-out queries stay out, so the gate never judges a
 * model on engagement it learned from. Per query too: what users asking one question did with a
 * document says it answers something, and training leaves each query's own share out. Traces and
 * events after `until` are left out: reading the same moment again later gives the same rows.
 */
async function engagement(d1: D1Database, projectId: string, since: number, until: number) {
  type Row = { queryKey: string; chunkId: string; sourceDocId: string; rank: number; n: number };
  const [shown, engaged, suite] = await d1.batch([
    d1
      .prepare(
        `select w.query_key as queryKey, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.rank, count(*) as n
         from (${WINDOW_TRACES}) w
         cross join trace_chunks c on c.project_id = ?1 and c.trace_id = w.trace_id and c.stage = w.stage and c.rank <= ?4
         where instr(w.answer, '[' || c.rank || ']') > 0 or (c.rank <= ?5 and not w.answer glob '*[[][0-9]*')
         group by 1, 2, 3, 4`,
      )
      .bind(projectId, since, until, MAX_CITED_RANK, SHOWN_WITHOUT_MARKERS),
    d1
      .prepare(
        `select w.query_key as queryKey, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.rank, sum(${ENGAGED}) as n
         from (${WINDOW_TRACES}) w
         cross join feedback_events e on e.project_id = ?1 and e.trace_id = w.trace_id
         ${JOIN_VERDICT}
         join trace_chunks c on c.project_id = ?1 and c.trace_id = w.trace_id and c.stage = w.stage and c.chunk_id = ${EVENT_CHUNK}
         -- The unary plus keeps SQLite on each answer's events instead of every engagement of the project on the type index.
         where +e.signal_type in ('citation_click', 'citation_dwell', 'copy_source') and ${NAMES_CHUNK} and e.superseded = 0 and e.received_at <= ?3
           and ${assessedSql(assessedUntilSql('?1'))} and ${VERDICT.confidence} >= ?4
         group by 1, 2, 3, 4`,
      )
      .bind(projectId, since, until, LOW_CONFIDENCE),
    // The suite's questions, whose engagement stays out as held-out questions' does.
    suiteKeysStatement(d1, projectId),
  ]);
  const curated = keysOf(suite!);
  const totals = new Map<string, EngagementRow>();
  const byQuery = new Map<string, EngagementRow>();
  const rows = (map: Map<string, EngagementRow>, key: string, r: Row, queryKey?: string) => {
    let row = map.get(key);
    if (!row) map.set(key, (row = { chunkId: r.chunkId, sourceDocId: r.sourceDocId, rank: r.rank, shown: 0, engaged: 0, ...(queryKey && { queryKey }) }));
    return row;
  };
  for (const [field, list] of [
    ['shown', shown!.results as Row[]],
    ['engaged', engaged!.results as Row[]],
  ] as const) {
    for (const r of list) {
      if (isHeldOut(r.queryKey) || curated.has(r.queryKey) || !r.n) continue;
      const key = `${r.chunkId}\u0000${r.rank}`;
      rows(totals, key, r)[field] += r.n;
      rows(byQuery, `${r.queryKey}\u0000${key}`, r, r.queryKey)[field] += r.n;
    }
  }
  return { engagement: [...totals.values()], queryEngagement: [...byQuery.values()] };
}

/** The latest version of each eval layer, each query with its trace's candidates, then the curated suite. */
export async function evalQueries(d1: D1Database, projectId: string, texts: ChunkTexts = new Map()): Promise<EvalQuery[]> {
  const { results } = await d1
    .prepare(
      `select layer, query, trace_id as traceId, judgements from eval_items e where project_id = ?1
         and version = (select max(version) from eval_sets s where s.project_id = ?1 and s.layer = e.layer)`,
    )
    .bind(projectId)
    .all<{ layer: string; query: string; traceId: string; judgements: string }>();
  const candidates = await candidatesOf(d1, projectId, [...new Set(results.map((r) => r.traceId))], texts);
  const mined = results.map((r) => ({ layer: r.layer, query: r.query, candidates: candidates.get(r.traceId) ?? [], judgements: JSON.parse(r.judgements) }));
  return [...mined, ...(await suiteEvalQueries(d1, projectId))];
}

export async function trainingData(
  d1: D1Database,
  projectId: string,
  now: number,
  confirmed?: Confirmed[],
  texts: ChunkTexts = new Map(),
): Promise<TrainingData> {
  confirmed ??= await confirmedExamples(d1, projectId);
  const keys = [...new Set(confirmed.map((c) => c.queryKey))];
  // As engagement: answers after `now` are left out, so the same moment read again gives the same lists.
  const latest = await latestTraceOfKeys(d1, projectId, keys, now);
  const candidates = await candidatesOf(
    d1,
    projectId,
    [...latest.values()].map((t) => t.traceId),
    texts,
  );
  const lists = keys.flatMap((key) => {
    const t = latest.get(key);
    const c = t && candidates.get(t.traceId);
    return t && c ? [{ queryKey: key, query: t.query, candidates: c }] : [];
  });
  const since = now - ENGAGEMENT_WINDOW_DAYS * DAY_MS;
  return { confirmed, lists, ...(await engagement(d1, projectId, since, now)) };
}
