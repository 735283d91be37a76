/**
 * The curated eval suite: questions a team judged itself, kept as sent (one row each, its
 * candidates and judgements as JSON), read by the gate as the `curated` layer.
 */
import { MAX_SUITE_QUERIES, type SuiteQuery } from '../../shared/schema/eval-suite.ts';
import { queryKey } from '../../shared/terms.ts';
import type { EvalQuery } from '../../shared/training/gate.ts';
import { CURATED_LAYER } from '../../shared/training/gate-findings.ts';
import { isHeldOut } from '../loop/eval-sets.ts';

export interface SuiteEntry {
  queryId: string;
  query: string;
  candidates: number;
  judgements: number;
  updatedAt: number;
}

/**
 * Adds or replaces one question. `full` when the suite holds its most questions already and this
 * one is new: nothing is written.
 */
export async function saveSuiteQuery(d1: D1Database, projectId: string, queryId: string, q: SuiteQuery, now: number): Promise<'saved' | 'full'> {
  const { meta } = await d1
    .prepare(
      `insert into eval_suite (project_id, query_id, query, query_key, candidates, judgements, updated_at)
         select ?1, ?2, ?3, ?4, ?5, ?6, ?7
         where exists (select 1 from eval_suite where project_id = ?1 and query_id = ?2)
            or (select count(*) from eval_suite where project_id = ?1) < ?8
       on conflict (project_id, query_id) do update set query = excluded.query, query_key = excluded.query_key,
         candidates = excluded.candidates, judgements = excluded.judgements, updated_at = excluded.updated_at`,
    )
    .bind(projectId, queryId, q.query, queryKey(q.query), JSON.stringify(q.candidates), JSON.stringify(q.judgements), now, MAX_SUITE_QUERIES)
    .run();
  return meta.changes > 0 ? 'saved' : 'full';
}

/** Whether there was such a question to remove. */
export async function deleteSuiteQuery(d1: D1Database, projectId: string, queryId: string): Promise<boolean> {
  const { meta } = await d1.prepare('delete from eval_suite where project_id = ? and query_id = ?').bind(projectId, queryId).run();
  return meta.changes > 0;
}

export async function listSuite(d1: D1Database, projectId: string): Promise<SuiteEntry[]> {
  const { results } = await d1
    .prepare(
      `select query_id as queryId, query, json_array_length(candidates) as candidates, json_array_length(judgements) as judgements,
         updated_at as updatedAt from eval_suite where project_id = ? order by query_id`,
    )
    .bind(projectId)
    .all<SuiteEntry>();
  return results;
}

/**
 * Reads the query keys of the suite's questions (reviewers' verdicts on them never train, as for
 * held-out questions), as a statement for the batch of the reads its caller makes with them:
 * `keysOf` its result.
 */
export const suiteKeysStatement = (d1: D1Database, projectId: string) =>
  d1.prepare('select distinct query_key as key from eval_suite where project_id = ?').bind(projectId);
export const keysOf = (result: D1Result): Set<string> => new Set((result.results as { key: string }[]).map((r) => r.key));

/**
 * Whether a reviewer's answer on a question is of use: it trains, or labels the eval sets (a
 * held-out question). On a curated question not held out it does neither: mining puts none of its
 * chunks to reviewers, and the queue holds the items raised before it joined the suite.
 */
export const worthReviewing = (key: string, inSuite: boolean): boolean => isHeldOut(key) || !inSuite;

/**
 * `worthReviewing` as SQL, for a write to read the suite as it stands then: `key` a question key,
 * `heldOut` whether it is held out (`isHeldOut`), `projectId` the project (SQL each).
 */
export const worthReviewingSql = (key: string, heldOut: string, projectId: string): string =>
  `(${heldOut} or ${key} not in (select query_key from eval_suite where project_id = ${projectId}))`;

/** The suite as eval queries: a document's judgement labels each of its candidate chunks that has none of its own. */
export async function suiteEvalQueries(d1: D1Database, projectId: string): Promise<EvalQuery[]> {
  const { results } = await d1
    .prepare('select query, candidates, judgements from eval_suite where project_id = ? order by query_id')
    .bind(projectId)
    .all<{ query: string; candidates: string; judgements: string }>();
  return results.map((r) => asEvalQuery({ query: r.query, candidates: JSON.parse(r.candidates), judgements: JSON.parse(r.judgements) }));
}

export function asEvalQuery(q: SuiteQuery): EvalQuery {
  const chunks = new Map<string, number>();
  const documents = new Map<string, number>();
  for (const j of q.judgements) 'chunkId' in j ? chunks.set(j.chunkId, j.relevance) : documents.set(j.sourceDocId, j.relevance);
  // Own keys whatever the ids (a chunk named __proto__ included), as JSON.parse makes them.
  const judgements = Object.fromEntries(
    q.candidates.flatMap((c) => {
      const relevance = chunks.get(c.chunkId) ?? documents.get(c.sourceDocId);
      return relevance === undefined ? [] : [[c.chunkId, relevance] as const];
    }),
  );
  return { layer: CURATED_LAYER, query: q.query, candidates: q.candidates, judgements };
}
