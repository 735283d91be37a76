import { traceQueryKey } from '../../shared/terms.ts';
import { utcDay } from '../../shared/time.ts';
import { markErasedDaysStale, requestArchiveErasure } from './archived-days.ts';
import { INVOCATION_QUERIES } from './d1-limits.ts';
import { eraseFromDeadLetters } from './dead-letter-erasure.ts';
import { forgetQuestionsInModels, keepQuestionTerms } from './erasure-memory.ts';
import { settingsOf } from './loop-settings.ts';
import { ITEM_EVIDENCE_LINES, itemAggregatesSql, latestQuerySql, writeItemAggregates } from './review-recompute.ts';
import { countedD1 } from './sql/counted-d1.ts';
import { recordErasedSql } from './sql/erased-traces.ts';
import { namedBatch } from './sql/named-batch.ts';
import { NEXT_RUN_NIGHT } from './sql/next-run.ts';
import { judgedKey, keysUnderSql, queryRowKey, queryRowQueryKeySql, questionRowKey, questionRowQueryKeySql } from './sql/question-lists.ts';
import { LOWER_READ_ROWIDS_SQL } from './sql/read-rowids.ts';
import { recountSessions } from './sql/session-counts.ts';
import { stillStoredSql, storedTurnsOnlySql } from './sql/still-stored.ts';
import { listTextChecksSql } from './sql/text-checks.ts';
import { assessedUntilSql } from './sql/verdict.ts';
import { traceStatsUpsert } from './trace-stats-upsert.ts';

/** Trace ids erased per batch: D1 limits a statement's size, not its rows. */
const ERASE_BATCH = 500;

/** D1 queries one batch of erasure runs at most, with room to spare (about 47: its reads, one transaction, the items' counts). */
export const ERASE_PASS_QUERIES = 60;

/** Wall time one call spends starting batches: well inside what a client waits for an answer (the console, 15 s). */
export const ERASE_CALL_MS = 8_000;

export interface ErasureOptions {
  /** D1 queries this call may run (Cloudflare bounds them per invocation): it stops between batches before running out. */
  queryBudget?: number;
  /** Starts no batch after this long (ms). */
  timeBudgetMs?: number;
  /** Trace ids per batch (tests). */
  tracesPerBatch?: number;
}

export interface ErasureCounts {
  traces: number;
  events: number;
  reviewItems: number;
  corrections: number;
}

/**
 * Deletes everything of one hashed user id: their traces with their chunks and aggregates, every
 * event about those traces with its assessment (and those that queued messages kept as dead letters
 * hold, which a replay would store again: dead-letter-erasure.ts), their corrections and eval
 * items, and their part of review items (an item only they raised goes; one others raised too is
 * recomputed from the traces left, and shows the query as one of them typed it) and of sessions'
 * counts (a session others' answers are in too is counted again from those). What a run in progress
 * (or one abandoned) listed of theirs goes too: their judged traces, and the query keys no one
 * else's judged trace still lists; so do their questions' running totals and eval labels (a build
 * reads a question's labels again from what is left). Then every stored model forgets their
 * questions (erasure-memory.ts). Erases whole batches of their traces, and rewrites models, while
 * the call's queries and time allow; `done: false` asks for another call. The erased traces' ids
 * are kept (`erased_traces`), so an event or a trace about one arriving later is not stored again.
 */
export async function eraseUser(
  binding: D1Database,
  projectId: string,
  userIdHash: string,
  { queryBudget = INVOCATION_QUERIES, timeBudgetMs = ERASE_CALL_MS, tracesPerBatch = ERASE_BATCH }: ErasureOptions = {},
): Promise<{ deleted: ErasureCounts; done: boolean }> {
  const started = Date.now();
  const { db: d1, queries } = countedD1(binding);
  const counts: ErasureCounts = { traces: 0, events: 0, reviewItems: 0, corrections: 0 };
  // The line of a clearly bad answer, which a session's counts are recounted by: read once, when a session is.
  let bad: number | undefined;
  const badScore = async () => (bad ??= (await settingsOf(d1, projectId)).badTraceScore);
  // A step (a batch of traces, a model rewritten) starts only with room for it left in the call; a call's first always does.
  let steps = 0;
  const more = () => steps === 0 || (queryBudget - queries() >= ERASE_PASS_QUERIES && Date.now() - started <= timeBudgetMs);
  /** Whether another step may start; if so, it is counted. */
  const step = () => {
    if (!more()) return false;
    steps++;
    return true;
  };
  for (;;) {
    // A user with many answers takes more than one call: each batch is whole, and the next call goes on.
    if (!more()) return { deleted: counts, done: false };
    // The sources the noise filter may have found flooding, as runs not finished keep them: forgotten with each batch.
    const sources = new Set([`user:${userIdHash}`]);
    const { results } = await d1
      .prepare(
        `select t.trace_id, t.session_id, t.query, t.created_at, s.query_key from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
         where t.project_id = ? and t.user_id_hash = ? limit ?`,
      )
      .bind(projectId, userIdHash, tracesPerBatch)
      .all<{ trace_id: string; session_id: string | null; query: string; created_at: number; query_key: string | null }>();
    if (results.length === 0) break;
    steps++;
    const ids = JSON.stringify(results.map((r) => r.trace_id));
    const inIds = (column: string) => `project_id = ?1 and ${column} in (select value from json_each(?2))`;
    // The key the job stored and the one the query gives now: the same, unless the rule changed since.
    const keyed = results.flatMap((r) =>
      [...new Set([r.query_key ?? traceQueryKey(r.query, r.trace_id), traceQueryKey(r.query, r.trace_id)])].map((key) => ({ traceId: r.trace_id, key })),
    );
    const keys = [...new Set(keyed.map((k) => k.key))];
    const sessions = [...new Set(results.flatMap((r) => (r.session_id === null ? [] : [r.session_id])))];
    for (const s of sessions) sources.add(`session:${s}`);
    const { results: addresses } = await d1
      .prepare(`select distinct ip_hash from feedback_events where ${inIds('trace_id')} and ip_hash is not null`)
      .bind(projectId, ids)
      .all<{ ip_hash: string }>();
    for (const a of addresses) sources.add(`ip:${a.ip_hash}`);
    const lists = {
      trace: ids,
      session: JSON.stringify(sessions),
      judged: JSON.stringify(keyed.map((k) => judgedKey(k.key, k.traceId))),
      query: JSON.stringify(keys.map(queryRowKey)),
      question: JSON.stringify(await Promise.all(keys.map(questionRowKey))),
      keys: JSON.stringify(keys),
    };
    const { results: affected } = await d1
      .prepare(`select distinct item_id from review_item_traces where ${inIds('trace_id')}`)
      .bind(projectId, ids)
      .all<{ item_id: string }>();
    const items = JSON.stringify(affected.map((a) => a.item_id));
    const statements = {
      // While their rows are there to say which days: those days' archived objects are written again without them.
      ...markErasedDaysStale(d1, projectId, ids),
      // Before the attributions change: others' answers whose events were attributed to the user's
      // (those events count for their own answers again), and others' answers the user's events
      // were attributed to (those events go). Recomputed below, in this transaction.
      othersListed: d1
        .prepare(
          `insert or ignore into erasure_recompute (project_id, trace_id)
           select ?1, a.trace_id from event_assessments a
             where a.project_id = ?1 and a.attributed_trace_id in (select value from json_each(?2)) and a.trace_id not in (select value from json_each(?2))
           union
           select ?1, a.attributed_trace_id from json_each(?2) mine
             cross join feedback_events e on e.project_id = ?1 and e.trace_id = mine.value
             cross join event_assessments a on a.project_id = ?1 and a.event_id = e.event_id
             where a.attributed_trace_id not in (select value from json_each(?2))`,
        )
        .bind(projectId, ids),
      assessments: d1.prepare(`delete from event_assessments where ${inIds('trace_id')}`).bind(projectId, ids),
      // Only the attribution goes: what the noise filter found about the event stays.
      othersVerdicts: d1
        .prepare(`update event_assessments set attributed_trace_id = trace_id, attribution = null where ${inIds('attributed_trace_id')}`)
        .bind(projectId, ids),
      events: d1.prepare(`delete from feedback_events where ${inIds('trace_id')}`).bind(projectId, ids),
      // Queued events the consumer could not write, which a replay would store again.
      ...eraseFromDeadLetters(d1, projectId, ids, utcDay(Date.now())),
      itemRows: d1.prepare(`delete from review_item_traces where ${inIds('trace_id')}`).bind(projectId, ids),
      reviewItems: d1
        .prepare(
          `delete from review_items where project_id = ?1 and item_id in (select value from json_each(?2))
             and not exists (select 1 from review_item_traces r where r.project_id = ?1 and r.item_id = review_items.item_id)`,
        )
        .bind(projectId, items),
      // The query as another user typed it, in this transaction: the counts written after it may
      // fail to land, and a retry finds no trace of the user's to start from.
      itemQueries: d1.prepare(latestQuerySql('select value from json_each(?2)')).bind(projectId, items),
      itemAggregates: d1.prepare(itemAggregatesSql('select value from json_each(?2)', '?3')).bind(projectId, items, ITEM_EVIDENCE_LINES),
      corrections: d1.prepare(`delete from corrections where ${inIds('trace_id')}`).bind(projectId, ids),
      // Others' corrections attributed to their answers: listed under the answers they were sent on again.
      othersCorrections: d1.prepare(`update corrections set attributed_trace_id = null where ${inIds('attributed_trace_id')}`).bind(projectId, ids),
      evalItems: d1.prepare(`delete from eval_items where ${inIds('trace_id')}`).bind(projectId, ids),
      // Retention looks at the texts of their chunks again: some may be used by no row any more.
      textChecks: d1.prepare(listTextChecksSql('select value from json_each(?2)')).bind(projectId, ids),
      chunkRows: d1.prepare(`delete from trace_chunks where ${inIds('trace_id')}`).bind(projectId, ids),
      traceStats: d1.prepare(`delete from trace_stats where ${inIds('trace_id')}`).bind(projectId, ids),
      traces: d1.prepare(`delete from traces where ${inIds('trace_id')}`).bind(projectId, ids),
      // Their ids, so that an event or trace about them arriving later (an outbox, the queue, a replay, a retry) is not stored again.
      tombstones: d1.prepare(recordErasedSql).bind(projectId, ids, Date.now()),
      // Those answers' questions, as a run in progress took them (their totals and scores as found),
      // are taken again as they stand when a slice next needs them, as the user's own questions are.
      othersTotals: d1.prepare(forgetTotalsSql(OTHERS_KEYS)).bind(projectId),
      othersScores: d1.prepare(forgetScoresSql(OTHERS_KEYS, 'trace_id in (select trace_id from erasure_recompute where project_id = ?1)')).bind(projectId),
      othersAnswers: traceStatsUpsert(d1, projectId, Date.now(), {
        affected: `select r.trace_id, s.query_key from erasure_recompute r cross join trace_stats s on s.project_id = ?1 and s.trace_id = r.trace_id
          where r.project_id = ?1`,
        until: assessedUntilSql('?1'),
      }),
      // Their review items, days and documents the next run counts again (a run under way may be past them).
      othersNextRun: d1
        .prepare(
          `insert or ignore into loop_touched (project_id, night, kind, key)
           select ?1, ?2, 'trace', trace_id from erasure_recompute where project_id = ?1`,
        )
        .bind(projectId, NEXT_RUN_NIGHT),
      othersDone: d1.prepare('delete from erasure_recompute where project_id = ?').bind(projectId),
      readRowids: d1.prepare(LOWER_READ_ROWIDS_SQL),
      // Their answers, gone now, leave the turns others' signals in their sessions were weighed against.
      othersAttributions: d1
        .prepare(
          `update event_assessments set attribution = ${storedTurnsOnlySql('attribution', "event_assessments.attribution, '$.scores'")}
           where project_id = ?1 and attribution is not null
             and event_id in (select e.event_id from json_each(?2) session
               cross join traces t on t.project_id = ?1 and t.session_id = session.value
               cross join feedback_events e on e.project_id = ?1 and e.trace_id = t.trace_id)
             and exists (select 1 from json_each(attribution, '$.scores') c where not ${stillStoredSql("c.value ->> 'traceId'")})`,
        )
        .bind(projectId, JSON.stringify(sessions)),
      evalLabels: d1.prepare(`delete from eval_labels where ${inIds('query_key')}`).bind(projectId, JSON.stringify(keys)),
      // A flagged document's evidence: the traces that showed it at its worst.
      documentFlags: d1
        .prepare(
          `update document_flags set evidence = (select json_group_array(value) from json_each(document_flags.evidence) where value not in (select value from json_each(?2)))
           where project_id = ?1 and exists (select 1 from json_each(document_flags.evidence) where value in (select value from json_each(?2)))`,
        )
        .bind(projectId, ids),
      // The worst answers each day kept per document, which that evidence is drawn from: counted
      // again from the answers left by the next run (a list without them would miss the next worst).
      evidenceLists: d1
        .prepare(
          `update document_days set worst = null
           where project_id = ?1 and day in (select value from json_each(?3)) and worst <> '[]'
             and exists (select 1 from json_each(document_days.worst) w where w.value ->> 1 in (select value from json_each(?2)))`,
        )
        .bind(projectId, ids, JSON.stringify([...new Set(results.map((r) => utcDay(r.created_at)))])),
    };
    // The flooding sources go in the same transaction: a call cut off after it leaves none of this batch's.
    // Their sessions are counted again without their answers, in this transaction: one shared keeps the others'.
    const recounted = sessions.length ? recountSessions(d1, 'select value from json_each(?2)', projectId, lists.session, await badScore()) : [];
    const r = await namedBatch(d1, statements, [
      ...recounted,
      ...forgetListed(d1, projectId, lists),
      forgetFlooding(d1, projectId, sources),
      // What the stored models remember of their questions is taken out once all their traces are gone.
      ...(await keepQuestionTerms(
        d1,
        projectId,
        userIdHash,
        results.map((t) => t.query),
      )),
    ]);
    const writes = writeItemAggregates(d1, projectId, Date.now(), r.itemAggregates.results);
    if (writes.length) await d1.batch(writes);
    counts.events += r.events.meta.changes;
    counts.reviewItems += r.reviewItems.meta.changes;
    counts.corrections += r.corrections.meta.changes;
    counts.traces += r.traces.meta.changes;
  }
  // A session still naming them had answers of theirs retention took: counted again from what others' left, or gone.
  await d1.batch([
    ...recountSessions(d1, 'select session_id from session_stats where project_id = ?1 and user_id_hash = ?2', projectId, userIdHash, await badScore()),
    forgetFlooding(d1, projectId, new Set([`user:${userIdHash}`])),
    // The archive's days retention purged hold their lines still: the nightly job takes them out.
    requestArchiveErasure(d1, projectId, userIdHash, Date.now()),
  ]);
  const done = await forgetQuestionsInModels(d1, projectId, userIdHash, step);
  return { deleted: counts, done };
}

/**
 * Takes the user's sources (their hashed id, sessions and addresses) out of what runs not finished
 * found flooding, in one statement: the job saves only what its slices change in a run's state. An
 * address another user shares stops counting as flooding for the rest of that run: erasure wins.
 */
function forgetFlooding(d1: D1Database, projectId: string, sources: ReadonlySet<string>): D1PreparedStatement {
  return d1
    .prepare(
      `update loop_runs set state = json_set(state, '$.flooding', json((select json_group_object(f.key, f.value) from json_each(loop_runs.state, '$.flooding') f
         where f.key not in (select value from json_each(?2)))))
       where project_id = ?1 and status = 'running' and state -> '$.flooding' is not null`,
    )
    .bind(projectId, JSON.stringify([...sources]));
}

/** The nights of runs not finished, whose mining lists are kept until they finish, and the next run's list. */
const UNFINISHED = `select night from loop_runs where project_id = ?1 and status = 'running' union all select '${NEXT_RUN_NIGHT}'`;

/** The questions of the other users' answers a batch of erasure recomputes (`erasure_recompute`). */
const OTHERS_KEYS = `select s.query_key from erasure_recompute r cross join trace_stats s on s.project_id = ?1 and s.trace_id = r.trace_id where r.project_id = ?1`;

/** Drops the totals runs not finished took of the questions `keys` selects (assess.ts `queryHistory`). */
const forgetTotalsSql = (keys: string) => `delete from loop_query_history where project_id = ?1 and night in (${UNFINISHED}) and query_key in (${keys})`;

/** Drops the scores as found runs not finished kept of answers to those questions, under their old key or their new, or that `also` names. */
const forgetScoresSql = (keys: string, also: string) =>
  `delete from loop_trace_history where project_id = ?1 and night in (${UNFINISHED}) and (${also} or query_key in (${keys})
     or exists (select 1 from trace_stats s where s.project_id = ?1 and s.trace_id = loop_trace_history.trace_id and s.query_key in (${keys})))`;

/**
 * Takes the user's traces and sessions (those no other answer is in) out of what runs not finished listed to recompute, and out
 * of their mining lists the user's stored rows and judged traces, then their query keys (from the
 * list of keys and the list by question) where no other judged trace lists them, and the scores
 * those runs took of the user's questions and answers.
 */
function forgetListed(
  d1: D1Database,
  projectId: string,
  lists: Record<'trace' | 'session' | 'judged' | 'query' | 'question' | 'keys', string>,
): D1PreparedStatement[] {
  const listed = (kind: string) =>
    `delete from loop_touched where project_id = ?1 and night in (${UNFINISHED}) and kind = '${kind}' and key in (select value from json_each(?2))`;
  const stillJudged = (keyOfRow: string) =>
    `not exists (select 1 from loop_touched j where j.project_id = ?1 and j.night = loop_touched.night and j.kind = 'judged' and ${keysUnderSql('j', keyOfRow)})`;
  return [
    d1
      .prepare(
        `delete from loop_touched where rowid in (select m.rowid from json_each(?2) t cross join loop_touched m
           on m.project_id = ?1 and m.night in (${UNFINISHED}) and m.kind = 'mined' and ${keysUnderSql('m', 't.value')})`,
      )
      .bind(projectId, lists.trace),
    d1.prepare(listed('trace')).bind(projectId, lists.trace),
    // A session others' answers are still in stays listed: the run counts it again without the user's.
    d1
      .prepare(`${listed('session')} and not exists (select 1 from traces t where t.project_id = ?1 and t.session_id = loop_touched.key)`)
      .bind(projectId, lists.session),
    d1.prepare(listed('judged')).bind(projectId, lists.judged),
    d1.prepare(`${listed('query')} and ${stillJudged(queryRowQueryKeySql('loop_touched.key'))}`).bind(projectId, lists.query),
    d1.prepare(`${listed('question')} and ${stillJudged(questionRowQueryKeySql('loop_touched.key'))}`).bind(projectId, lists.question),
    // The scores a run took of the user's questions and answers: a slice after this takes them again, without the user's answers.
    d1.prepare(forgetTotalsSql('select value from json_each(?2)')).bind(projectId, lists.keys),
    d1.prepare(forgetScoresSql('select value from json_each(?3)', 'trace_id in (select value from json_each(?2))')).bind(projectId, lists.trace, lists.keys),
  ];
}
