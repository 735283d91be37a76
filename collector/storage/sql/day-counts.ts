/**
 * What a day's rows in `day_stats` and `document_days` count of its answers: the days stage counts
 * the answers stored, retention what it purges (kept with the day, as `purged_<count>`), and the
 * day is counted again as the sum of both.
 */

import { BY_TRACE } from './chunk-rows-by-trace.ts';
import { TEXT_VERSION } from './chunk-text.ts';
import { clearlyBadSql, clearlyGoodSql } from './clear-scores.ts';
import { seenStageSql } from './seen-stage.ts';

/** A day's counts in `day_stats`, each with its `purged_` column. */
export const DAY_COUNTS = [
  'traces',
  'with_signals',
  'with_trusted',
  'explicit_signals',
  'implicit_signals',
  'signals',
  'trusted_signals',
  'negative',
  'requeried',
] as const;

/** The counts of answers `t` (with their stats `s`), as DAY_COUNTS; `bad` is the line of a clearly bad answer. */
export const dayCountsSql = (bad: string) =>
  `count(*) as traces, count(case when s.live_signals > 0 then 1 end) as with_signals, count(case when s.trusted_signals > 0 then 1 end) as with_trusted,
   coalesce(sum(s.explicit_signals), 0) as explicit_signals, coalesce(sum(s.implicit_signals), 0) as implicit_signals,
   coalesce(sum(s.live_signals), 0) as signals, coalesce(sum(s.trusted_signals), 0) as trusted_signals,
   count(case when s.trusted_signals > 0 and ${clearlyBadSql('s.weighted_score', bad)} then 1 end) as negative, count(case when s.requeried then 1 end) as requeried`;

/** A document day's counts in `document_days`, each with its `purged_` column. */
export const DOCUMENT_COUNTS = ['traces', 'scored', 'negative', 'positive', 'requeried'] as const;

/**
 * The counts of answers `d` (each once per document, with `scored`, `score` and `requeried`), as
 * DOCUMENT_COUNTS; `bad` and `good` are the lines of clearly bad and clearly good answers.
 */
export const documentCountsSql = (bad: string, good: string) =>
  `count(*) as traces, count(case when scored then 1 end) as scored, count(case when scored and ${clearlyBadSql('score', bad)} then 1 end) as negative,
   count(case when scored and ${clearlyGoodSql('score', good)} then 1 end) as positive, count(case when requeried then 1 end) as requeried`;

/**
 * Each answer `t` that `where` selects once per document the model saw (the stage mining and
 * corrections read: a document the reranker dropped was never shown), however many of its chunks and versions
 * it cited: in the row of those versions (in order, so that the same versions are the same row),
 * as `trace_id, doc, versions`, with the answer's `created_at` and its stats as `scored`, `score`
 * and `requeried` (null without a stats row). One grouping, its stats read once an answer rather
 * than once a document: the purge's per-document counts took about 1.6 times the CPU (docs/nightly-performance.md).
 */
export const documentAnswersSql = (where: string) =>
  `select c.trace_id, c.source_doc_id as doc, json_group_array(distinct ${TEXT_VERSION} order by ${TEXT_VERSION}) as versions,
     -- Of the group's one answer.
     t.created_at, s.trusted_signals > 0 as scored, s.weighted_score as score, s.requeried
   from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
   cross join trace_chunks c ${BY_TRACE} on c.project_id = t.project_id and c.trace_id = t.trace_id
     and c.stage = ${seenStageSql('t.project_id', 't.trace_id')}
   where ${where}
   group by c.trace_id, c.source_doc_id`;

/** `set` clauses adding `x`'s counts to the `purged_` columns of `counts`. */
export const addPurgedSql = (counts: readonly string[]) => counts.map((c) => `purged_${c} = purged_${c} + x.${c}`).join(', ');

/** `set` clauses making `counts` the sum of the excluded row's and their `purged_` columns (an upsert counting a day again). */
export const withPurgedSql = (counts: readonly string[]) => counts.map((c) => `${c} = excluded.${c} + purged_${c}`).join(', ');
