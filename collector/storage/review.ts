import { HELD_REASONS, type HeldReason, type ReviewItem } from '../../shared/admin-api/review.ts';
import { DAY_MS } from '../../shared/time.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { DEFAULT_MINING_THRESHOLD, heldReason } from '../loop/review-budget.ts';
import { keysOf, suiteKeysStatement, worthReviewing } from './eval-suite.ts';
import { evidenceFields } from './stored-evidence.ts';
import { guessWhyFields } from './stored-guess-why.ts';
import { AFTER_TRAINING_READ_SQL } from './training-reads.ts';

/** The mining threshold in force for the project `projectId` (SQL): the last recorded change, or the default. */
const thresholdSql = (projectId: string) =>
  `coalesce((select to_value from mining_thresholds where project_id = ${projectId} order by at desc limit 1), ${DEFAULT_MINING_THRESHOLD})`;

/** The mining threshold in force (the last recorded change, or the default), read in a batch with other reads; `thresholdOf` its result. */
export const currentThresholdStatement = (d1: D1Database, projectId: string) => d1.prepare(`select ${thresholdSql('?')} as t`).bind(projectId);
export const thresholdOf = (result: D1Result): number => (result.results[0] as { t: number }).t;

const ITEM_COLUMNS = `i.item_id as id, i.query, i.chunk_id as chunkId, i.source_doc_id as sourceDocId, i.source_doc_version as sourceDocVersion,
  i.chunk_text as text, i.rank, i.score, i.candidate, i.guess, i.guess_why as guessWhy, i.evidence, i.trace_count as traceCount,
  i.expected_value as expectedValue, i.status, i.verdict, i.note, i.answered_at as answeredAt, i.query_key as queryKey,
  exists (select 1 from eval_suite s where s.project_id = i.project_id and s.query_key = i.query_key) as curated,
  i.expected_value < ${thresholdSql('i.project_id')} as belowThreshold,
  (select json_group_array(trace_id) from (select trace_id from review_item_traces r where r.project_id = i.project_id and r.item_id = i.item_id
     order by weight desc, trace_id limit 20)) as traceIds`;

type RawItem = Omit<ReviewItem, 'chunk' | 'evidence' | 'evidenceCodes' | 'guessWhyCode' | 'traceIds' | 'heldOut' | 'curated' | 'heldFor'> & {
  queryKey: string;
  chunkId: string;
  sourceDocId: string;
  sourceDocVersion: string | null;
  text: string;
  evidence: string;
  traceIds: string;
  curated: 0 | 1;
  belowThreshold: 0 | 1;
};

const fromRaw = ({ queryKey, chunkId, sourceDocId, sourceDocVersion, text, evidence, traceIds, curated, belowThreshold, ...r }: RawItem): ReviewItem => ({
  ...r,
  chunk: { chunkId, sourceDocId, sourceDocVersion, text },
  ...evidenceFields(evidence),
  ...guessWhyFields(r.guessWhy),
  traceIds: JSON.parse(traceIds) as string[],
  heldOut: isHeldOut(queryKey),
  curated: curated === 1,
  // Read off the suite and the threshold as they stand, as tonight's queue stage will.
  heldFor: r.status === 'held' ? heldReason(worthReviewing(queryKey, curated === 1), belowThreshold === 1) : null,
});

/** Items of one status, highest expected value first (answered ones: latest first), `offset` passed over; ties in id order, so pages follow on. */
export async function reviewItems(d1: D1Database, projectId: string, status: ReviewItem['status'], limit: number, offset = 0): Promise<ReviewItem[]> {
  const order = status === 'answered' ? 'i.answered_at desc, i.item_id' : 'i.expected_value desc, i.item_id';
  const { results } = await d1
    .prepare(`select ${ITEM_COLUMNS} from review_items i where i.project_id = ? and i.status = ? order by ${order} limit ? offset ?`)
    .bind(projectId, status, limit, offset)
    .all<RawItem>();
  return results.map(fromRaw);
}

export async function reviewItem(d1: D1Database, projectId: string, id: string): Promise<ReviewItem | undefined> {
  const row = await d1.prepare(`select ${ITEM_COLUMNS} from review_items i where i.project_id = ? and i.item_id = ?`).bind(projectId, id).first<RawItem>();
  return row ? fromRaw(row) : undefined;
}

/**
 * Records a reviewer's answer, or takes it back (`verdict` null: the item waits again). The same
 * answer given again keeps its time: it is not new to a model trained since, nor another review.
 * With `ifVerdict` (the verdict the reviewer saw, null for none), only while the item still has
 * it, or has this answer already, note and all (the same answer sent again, after a lost
 * response, is taken as before): another reviewer's answer given meanwhile, or its note, is not
 * overwritten unseen (`changed`).
 */
export async function answerItem(
  d1: D1Database,
  projectId: string,
  id: string,
  verdict: ReviewItem['verdict'],
  note: string | null,
  now: number,
  ifVerdict?: ReviewItem['verdict'],
): Promise<'answered' | 'changed' | 'not_found'> {
  // Stamped no earlier than just after the latest training's read began (training-reads.ts): a read
  // that began after `now` was taken, but before this is saved, did not see it.
  const answer = d1
    .prepare(
      `update review_items set verdict = ?3, note = ?4,
         answered_at = case when status = 'answered' and verdict is ?3 then answered_at else max(?5, coalesce((${AFTER_TRAINING_READ_SQL}), 0)) end,
         status = case when ?3 is null then 'pending' else 'answered' end, updated_at = ?6
       where project_id = ?1 and item_id = ?2 and (?7 = 0 or verdict is ?8 or (verdict is ?3 and note is ?4))`,
    )
    .bind(projectId, id, verdict, verdict === null ? null : note, verdict === null ? null : now, now, ifVerdict === undefined ? 0 : 1, ifVerdict ?? null);
  // Waiting again, the item is listed for retention, which looks at listed items alone: its
  // answers may have been purged while it was answered.
  const listed = d1
    .prepare(
      `insert or ignore into review_item_checks (project_id, item_id) select project_id, item_id from review_items where project_id = ? and item_id = ? and status = 'pending'`,
    )
    .bind(projectId, id);
  const [r] = verdict === null ? await d1.batch([answer, listed]) : [await answer.run()];
  if (r!.meta.changes > 0) return 'answered';
  return (await d1.prepare('select 1 from review_items where project_id = ? and item_id = ?').bind(projectId, id).first()) ? 'changed' : 'not_found';
}

export interface QueueCounts {
  pending: number;
  held: number;
  /** The held items by why they are held. */
  heldFor: Record<HeldReason, number>;
  answeredLastWeek: number;
  /** Answered relevant or not relevant (on held-out questions too: `trainingExampleCount` counts what trains). */
  confirmed: number;
  /** The mining threshold in force (`currentThresholdStatement`). */
  threshold: number;
}

export async function queueCounts(d1: D1Database, projectId: string, now: number): Promise<QueueCounts> {
  const [counts, held, suite, threshold] = await d1.batch([
    d1
      .prepare(
        `select count(case when status = 'pending' then 1 end) as pending, count(case when status = 'held' then 1 end) as held,
           count(case when status = 'answered' and answered_at > ?2 then 1 end) as answeredLastWeek,
           count(case when status = 'answered' and verdict in ('relevant', 'not_relevant') then 1 end) as confirmed
         from review_items where project_id = ?1`,
      )
      .bind(projectId, now - 7 * DAY_MS),
    // By question: whether one is worth reviewing is the suite's and `isHeldOut`'s to say, not SQL's.
    d1
      .prepare(
        `select query_key as key, expected_value < ${thresholdSql('?1')} as below, count(*) as n from review_items
         where project_id = ?1 and status = 'held' group by key, below`,
      )
      .bind(projectId),
    // In the same round trip: the suite's questions, and the threshold the held items are counted by.
    suiteKeysStatement(d1, projectId),
    currentThresholdStatement(d1, projectId),
  ]);
  const curated = keysOf(suite!);
  const heldFor = Object.fromEntries(HELD_REASONS.map((r) => [r, 0])) as Record<HeldReason, number>;
  for (const { key, below, n } of held!.results as { key: string; below: 0 | 1; n: number }[])
    heldFor[heldReason(worthReviewing(key, curated.has(key)), below === 1)] += n;
  return { ...(counts!.results[0] as Omit<QueueCounts, 'heldFor' | 'threshold'>), heldFor, threshold: thresholdOf(threshold!) };
}
