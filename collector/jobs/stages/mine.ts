import type { Evidence } from '../../../shared/admin-api/evidence.ts';
import type { GuessWhy } from '../../../shared/admin-api/guess-why.ts';
import { byCodeUnit } from '../../../shared/code-unit-order.ts';
import { sha256Hex } from '../../../shared/hex.ts';
import { isFocusedDwell } from '../../../shared/signal-value.ts';
import { isHeldOut } from '../../loop/eval-sets.ts';
import { type Candidate, MINED_TOP_RANKS, type MinedChunk, type MiningTrace, mineTrace } from '../../loop/mining.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { isClearlyBad } from '../../loop/trace-score.ts';
import { deferIndexes, indexExists, restoreOwnIndexes } from '../../storage/deferred-indexes.ts';
import { keysOf, suiteKeysStatement, worthReviewing, worthReviewingSql } from '../../storage/eval-suite.ts';
import { ITEM_EVIDENCE_LINES, itemAggregatesSql, writeItemAggregates } from '../../storage/review-recompute.ts';
import { BY_TRACE } from '../../storage/sql/chunk-rows-by-trace.ts';
import { JOIN_CHUNK_TEXT } from '../../storage/sql/chunk-text.ts';
import { clearlyJudgedSql } from '../../storage/sql/clear-scores.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import {
  keysUnderSql,
  MINED_ITEM_SQL,
  pairKeySql,
  QUESTION_ID_LENGTH,
  questionIdOf,
  questionRowKey,
  questionRowQueryKeySql,
  SEPARATOR,
} from '../../storage/sql/question-lists.ts';
import { seenStageSql } from '../../storage/sql/seen-stage.ts';
import { stillStoredSql } from '../../storage/sql/still-stored.ts';
import { attributedEventsSql, VERDICT } from '../../storage/sql/verdict.ts';
import { BULK_LOAD_STATE, nextCursor, type SliceResult, type Stage, type StageContext, sliceKeysSql, sliceParams } from './stage.ts';

interface ScoredTrace {
  trace_id: string;
  query_key: string;
  query: string;
  weighted_score: number;
}

interface ChunkRow extends MinedChunk {
  traceId: string;
  stage: string;
}

interface TrustedEvent {
  trace_id: string;
  signal_type: string;
  detail: string;
  parsed: Record<string, unknown>;
  confidence: number;
}

const ITEM_ID_LENGTH = 32;

/**
 * The ids of the question "does chunk C help answer query Q?", stable for the same pair: `id`, its
 * question's id then the pair's hash, and `legacy`, the pair's hash alone, which items mined
 * before ids sorted by question have and keep.
 */
async function itemIdsOf(questionId: string, key: string, chunkId: string): Promise<{ id: string; legacy: string }> {
  const pair = await sha256Hex(`${key}\u0000${chunkId}`);
  return { id: questionId + pair.slice(0, ITEM_ID_LENGTH - QUESTION_ID_LENGTH), legacy: pair.slice(0, ITEM_ID_LENGTH) };
}

/** Review items one slice of the last pass recomputes. */
const ITEMS_PER_SLICE = 1_000;
/** Questions one slice lists per trace a slice mines: listing one is a hash and a row. */
const QUESTIONS_PER_TRACE = 5;
/**
 * The mine stage's cursor: null while it lists the traces it judges, then where its list of
 * their questions continues, where its pass over them question by question continues, and where
 * its pass over the items they touched continues.
 */
// Renamed when the judged traces' stored rows came to be listed first: an earlier run's cursor starts the stage again.
const QUESTIONS = 'l:';
const JUDGED = 'j:';
const ITEMS = 'i:';

/** The run's touched traces, for the project ?1 and night ?2. */
const TOUCHED_TRACES = `select key from loop_touched where project_id = ?1 and night = ?2 and kind = 'trace'`;
/** Those not clearly scored (bad below ?3, good from ?4), which no slice mines. */
const NOT_JUDGED = `select l.key from (${TOUCHED_TRACES}) l left join trace_stats s on s.project_id = ?1 and s.trace_id = l.key
  where s.trace_id is null or not (s.trusted_signals > 0 and ${clearlyJudgedSql('s.weighted_score', '?3', '?4')})`;

const TRACE_INDEX = 'review_item_traces_trace';
/** The review tables' indexes in another order than item ids: a bulk load builds them again once, after mining. */
const OUT_OF_ORDER_INDEXES = [TRACE_INDEX, 'review_items_queue'];

/**
 * Statements that take back what the traces `tracesSql` selects contributed before: their items
 * are listed for recomputation and their rows go. `byTrace` is the hint to read them on the trace
 * index: left to itself, SQLite reads the item ids from the primary key, which holds them, through
 * every row of the project. Without it (another project's bulk load deferred the index) it does.
 */
const clearTraces = (db: D1Database, tracesSql: string, params: readonly unknown[], byTrace: string) => [
  db
    .prepare(
      `insert or ignore into loop_touched (project_id, night, kind, key)
       select distinct ?1, ?2, 'item', item_id from review_item_traces ${byTrace}
       where project_id = ?1 and trace_id in (${tracesSql})`,
    )
    .bind(...params),
  db.prepare(`delete from review_item_traces where project_id = ?1 and trace_id in (${tracesSql})`).bind(...params),
];

/**
 * The same for the judged traces `tracesSql` selects, from the rows the first pass listed for them
 * (`mined`): no index on trace ids is needed, so a bulk load can defer it.
 */
function takeBackListed(db: D1Database, tracesSql: string, params: readonly unknown[]) {
  const listed = `select ${MINED_ITEM_SQL} as item_id, k.key as trace_id from (${tracesSql}) k
    cross join loop_touched m on m.project_id = ?1 and m.night = ?2 and m.kind = 'mined' and ${keysUnderSql('m', 'k.key')}`;
  return [
    db.prepare(`insert or ignore into loop_touched (project_id, night, kind, key) select distinct ?1, ?2, 'item', item_id from (${listed})`).bind(...params),
    db.prepare(`delete from review_item_traces where project_id = ?1 and (item_id, trace_id) in (${listed})`).bind(...params),
  ];
}

/**
 * Mines the run's touched traces that are clearly bad or clearly good into review items, from
 * trusted signals only, question by question: item ids start with their question's id, so each
 * slice writes its items and their rows into one range of ids, in the order of their keys, rather
 * than all over the tables. Each trace's contribution is stored per item (a trace mined again
 * replaces its rows), and once every trace is mined the items they touched are recomputed from
 * those rows, once each, so mining a trace again changes nothing.
 */
export const mine: Stage = {
  name: 'mine',
  async slice(ctx, cursor): Promise<SliceResult> {
    if (cursor?.startsWith(ITEMS)) return recomputeItems(ctx, cursor.slice(ITEMS.length));
    if (cursor?.startsWith(JUDGED)) return mineJudged(ctx, cursor.slice(JUDGED.length));
    if (cursor?.startsWith(QUESTIONS)) return listQuestions(ctx, cursor.slice(QUESTIONS.length));
    // A cursor of an earlier version starts the stage again: every pass can run twice.
    return listJudged(ctx);
  },
};

/**
 * Lists the touched traces to judge, keyed by their query key then trace id, and their query keys:
 * each list is written once, in its keys' order, by a pass over the touched traces like the prepare
 * stage's. A touched trace no longer clearly scored loses what it contributed before here (its
 * items are recomputed, and an item it no longer raises loses it); the rows of one still judged
 * are listed, and it loses them in the slice that mines it again, so what is stored stays whole
 * between slices. In a bulk load (stage.ts) the review tables' out-of-order indexes go last.
 */
async function listJudged(ctx: StageContext): Promise<SliceResult> {
  const { db, projectId, night, settings } = ctx;
  // Done again (a cursor of an earlier version), the pass wants the trace index its bulk load deferred.
  const restoredIndexes = await restoreOwnIndexes(db, { projectId, night });
  const byTrace = (await indexExists(db, TRACE_INDEX)) ? `indexed by ${TRACE_INDEX}` : '';
  const bulk = ctx.run.state[BULK_LOAD_STATE] === true;
  const written = await db.batch([
    db.prepare(`select count(*) as n from (${TOUCHED_TRACES})`).bind(projectId, night),
    ...clearTraces(db, NOT_JUDGED, [projectId, night, settings.badTraceScore, settings.goodTraceScore], byTrace),
    db
      .prepare(
        `insert or ignore into loop_touched (project_id, night, kind, key)
         select ?1, ?2, 'mined', ${pairKeySql('trace_id', 'item_id')} from review_item_traces ${byTrace}
         where project_id = ?1 and trace_id in (${TOUCHED_TRACES})`,
      )
      .bind(projectId, night),
    db
      .prepare(
        `insert or ignore into loop_touched (project_id, night, kind, key)
         select ?1, ?2, 'judged', ${pairKeySql('s.query_key', 's.trace_id')} from (${TOUCHED_TRACES}) l
         cross join trace_stats s on s.project_id = ?1 and s.trace_id = l.key
         where s.trusted_signals > 0 and ${clearlyJudgedSql('s.weighted_score', '?3', '?4')} order by 4`,
      )
      .bind(projectId, night, settings.badTraceScore, settings.goodTraceScore),
    db
      .prepare(
        `insert or ignore into loop_touched (project_id, night, kind, key)
         select distinct ?1, ?2, 'query', substr(key, 1, instr(key, char(1))) from loop_touched
         where project_id = ?1 and night = ?2 and kind = 'judged' order by 4`,
      )
      .bind(projectId, night),
    ...(bulk ? deferIndexes(db, { projectId, night }, OUT_OF_ORDER_INDEXES) : []),
  ]);
  const counts = { traces: (written[0]!.results[0] as { n: number }).n, ...(restoredIndexes > 0 && { restoredIndexes }) };
  // What this run deferred (the statement that keeps the definitions): one another run deferred first stays that run's to build.
  const deferred = bulk ? written.at(-1 - OUT_OF_ORDER_INDEXES.length)!.meta.changes : 0;
  return { cursor: QUESTIONS, counts: { ...counts, ...(deferred > 0 && { deferredIndexes: deferred }) } };
}

/**
 * Lists a page of the judged traces' query keys (each listed with the separator after it, so that
 * an empty key, stored before a query of stop words alone had a key of its own, is listed too)
 * after their question's id: the list's order is the item ids'.
 */
async function listQuestions(ctx: StageContext, after: string): Promise<SliceResult> {
  const { db, projectId, night } = ctx;
  const size = ctx.tracesPerSlice * QUESTIONS_PER_TRACE;
  const { results } = await db
    .prepare(sliceKeysSql('query'))
    .bind(...sliceParams(ctx, after || null, size))
    .all<{ key: string }>();
  const keys = results.map((r) => r.key);
  const listed = (await Promise.all(keys.map((listedKey) => questionRowKey(listedKey.slice(0, -SEPARATOR.length))))).sort();
  if (listed.length)
    await db.batch(
      jsonArrays(listed).map((part) =>
        db
          .prepare(`insert or ignore into loop_touched (project_id, night, kind, key) select ?1, ?2, 'question', value from json_each(?3)`)
          .bind(projectId, night, part),
      ),
    );
  const next = nextCursor(ctx, keys, size);
  return { cursor: next === null ? JUDGED : QUESTIONS + next, counts: { questions: keys.length } };
}

/**
 * Mines the next judged traces, question by question in the order of their ids, and each
 * question's in trace id order. A slice takes a bounded number of traces and may stop inside a
 * question, which the next slice continues: its cursor is the last question's key and trace id,
 * a place in a list fixed for the run, so a run cut after any slice ends where an uncut one does.
 */
async function mineJudged(ctx: StageContext, after: string): Promise<SliceResult> {
  const { db, settings } = ctx;
  const cut = after.indexOf(SEPARATOR);
  // The question's list key, and the judged trace's (its key without the question's id).
  const [question, judged] = cut < 0 ? ['', ''] : [after.slice(0, cut), after.slice(QUESTION_ID_LENGTH)];
  const params = [ctx.projectId, ctx.night, question, ctx.tracesPerSlice, judged, settings.badTraceScore, settings.goodTraceScore] as const;
  const { windowTo } = ctx.run;
  // Each question's traces are the judged keys between its key and a character after it: both
  // lists are read in key order, which is the order the slice asks for (no sort).
  const keyOf = questionRowQueryKeySql('q.key');
  const pairsSql = `select q.key as question, j.key as judged from loop_touched q
    cross join loop_touched j on j.project_id = ?1 and j.night = ?2 and j.kind = 'judged' and ${keysUnderSql('j', keyOf)}
    where q.project_id = ?1 and q.night = ?2 and q.kind = 'question' and q.key >= ?3 and (q.key > ?3 or j.key > ?5)
    order by q.key, j.key limit ?4`;
  const slice = `select substr(judged, instr(judged, char(1)) + 1) as key from (${pairsSql})`;
  // From the slice's keys to their aggregates: the other way round, SQLite reads every clearly
  // scored trace of the project through the score index for each slice.
  const scoredSql = `select s.trace_id as key from (${slice}) k cross join trace_stats s on s.project_id = ?1 and s.trace_id = k.key
    where s.trusted_signals > 0 and ${clearlyJudgedSql('s.weighted_score', '?6', '?7')}`;
  const [pairRows, scoredRows, eventRows, suite] = await db.batch([
    db.prepare(pairsSql).bind(...params.slice(0, 5)),
    db
      .prepare(
        `select s.trace_id, s.query_key, t.query, s.weighted_score from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
         where s.project_id = ?1 and s.trace_id in (${scoredSql})`,
      )
      .bind(...params),
    db
      .prepare(
        attributedEventsSql({
          from: `(${scoredSql}) j`,
          traceId: 'j.key',
          columns: `j.key as trace_id, e.signal_type, e.detail, ${VERDICT.confidence} as confidence`,
          until: '?9',
          where: `e.superseded = 0 and ${VERDICT.confidence} >= ?8`,
        }),
      )
      .bind(...params, LOW_CONFIDENCE, windowTo),
    // The suite's questions, whose traces raise no items (the write checks the suite as it stands then too).
    suiteKeysStatement(db, ctx.projectId),
    // A trace mined again replaces what it contributed, in the same slice: done again, a slice
    // takes back and rewrites only its own traces' rows.
    ...takeBackListed(db, slice, params.slice(0, 5)),
  ]);
  const pairs = pairRows!.results as { question: string; judged: string }[];
  const last = pairs.at(-1);
  // The traces are done: the items they touched come next.
  const cursor = pairs.length < ctx.tracesPerSlice || !last ? ITEMS : JUDGED + last.question + last.judged.slice(last.judged.indexOf(SEPARATOR));
  const scored = scoredRows!.results as ScoredTrace[];
  if (scored.length === 0) return { cursor, counts: {} };
  const events = groupBy(
    (eventRows!.results as Omit<TrustedEvent, 'parsed'>[]).map((e) => ({ ...e, parsed: JSON.parse(e.detail) as Record<string, unknown> })),
    (e) => e.trace_id,
  );
  const chunks = groupBy(await minedChunks(ctx, scored, events), (c) => c.traceId);
  await withTexts(ctx, chunks, events);
  const candidates: (Candidate & { key: string })[] = [];
  const curated = keysOf(suite!);
  for (const t of scored) {
    // Its traces' rows were taken back above: an item only such traces raised goes unless answered.
    if (!worthReviewing(t.query_key, curated.has(t.query_key))) continue;
    const trace = miningTrace(t, chunks.get(t.trace_id) ?? [], events.get(t.trace_id) ?? []);
    for (const c of mineTrace(trace, settings)) candidates.push({ ...c, key: t.query_key });
  }
  const questionIds = new Map(pairs.map((p) => [p.question.slice(QUESTION_ID_LENGTH), p.question.slice(0, QUESTION_ID_LENGTH)]));
  const itemId = await itemIdsByPair(ctx, candidates, questionIds);
  const rows = candidates.map((c) => ({
    itemId: itemId(c.key, c.chunk.chunkId),
    key: c.key,
    query: c.query,
    traceId: c.traceId,
    candidate: c.label,
    weight: c.weight,
    evidence: c.evidence,
    guess: c.guess,
    guessWhy: c.guessWhy,
    rank: c.chunk.rank,
    score: c.chunk.score,
    chunk: c.chunk,
  }));
  // In key order, as the tables keep them.
  rows.sort((a, b) => byCodeUnit(a.itemId, b.itemId) || byCodeUnit(a.traceId, b.traceId));
  if (rows.length) await saveCandidates(ctx, rows);
  return { cursor, counts: { judged: scored.length, candidates: rows.length } };
}

/**
 * The item id of each (query key, chunk) the candidates raise: an item mined before ids sorted by
 * question keeps its id, any other gets its question's (the slice's list gives it, else it is
 * worked out). Many traces ask the same question about the same chunk: one hash each.
 */
async function itemIdsByPair({ db, projectId }: StageContext, candidates: readonly (Candidate & { key: string })[], questionIds: ReadonlyMap<string, string>) {
  const questions = new Map([...questionIds].map(([key, id]) => [key, Promise.resolve(id)]));
  const pairs = new Map<string, Promise<{ id: string; legacy: string }>>();
  for (const { key, chunk } of candidates) {
    const pair = `${key}\u0000${chunk.chunkId}`;
    if (pairs.has(pair)) continue;
    let question = questions.get(key);
    if (!question) questions.set(key, (question = questionIdOf(key)));
    pairs.set(
      pair,
      question.then((q) => itemIdsOf(q, key, chunk.chunkId)),
    );
  }
  const ids = new Map<string, { id: string; legacy: string }>();
  for (const [pair, id] of pairs) ids.set(pair, await id);
  const legacy = new Set<string>();
  const lookups = jsonArrays([...ids.values()].map((i) => i.legacy)).map((part) =>
    db.prepare('select item_id from review_items where project_id = ?1 and item_id in (select value from json_each(?2))').bind(projectId, part),
  );
  for (const r of lookups.length ? await db.batch(lookups) : []) for (const row of r.results as { item_id: string }[]) legacy.add(row.item_id);
  return (key: string, chunkId: string) => {
    const { id, legacy: old } = ids.get(`${key}\u0000${chunkId}`)!;
    return legacy.has(old) ? old : id;
  };
}

/**
 * The chunks of each judged trace that mining can use, in what the model saw: a bad answer's top
 * ranks, every chunk its trusted signals name (flags, clicks, reads, copies), and all of them for an
 * answer with a correction (diagnosing it compares the correction with each). The other chunk rows,
 * most of them, stay in the database.
 */
async function minedChunks({ db, projectId, settings }: StageContext, scored: readonly ScoredTrace[], events: Map<string, TrustedEvent[]>) {
  const needs = scored.map((t) => {
    const list = events.get(t.trace_id) ?? [];
    return {
      t: t.trace_id,
      all: list.some((e) => e.signal_type === 'correction') ? 1 : 0,
      top: isClearlyBad(t.weighted_score, settings.badTraceScore) ? MINED_TOP_RANKS : 0,
      ids: [...new Set(list.map((e) => e.parsed.chunkId).filter((id) => typeof id === 'string'))],
    };
  });
  const rows: ChunkRow[] = [];
  for (const part of jsonArrays(needs)) {
    const { results } = await db
      .prepare(
        // What the model saw: the reranked chunks when a reranker ran, else the retrieved ones.
        `select n.t as traceId, c.stage, c.rank, c.score, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.source_doc_version as sourceDocVersion
         from (select value ->> 't' as t, value ->> 'all' as every, value ->> 'top' as top, value -> 'ids' as ids,
                 ${seenStageSql('?1', "value ->> 't'")} as stage from json_each(?2)) n
         cross join trace_chunks c on c.project_id = ?1 and c.trace_id = n.t and c.stage = n.stage
         where n.every or c.rank <= n.top or c.chunk_id in (select value from json_each(n.ids))
         order by n.t, c.rank`,
      )
      .bind(projectId, part)
      .all<Omit<ChunkRow, 'text'>>();
    for (const r of results) rows.push({ ...r, text: '' });
  }
  return rows;
}

/** The texts of the chunk rows of the traces in the JSON list ?2 (project ?1). */
export const TRACE_TEXTS_SQL = `select c.trace_id as traceId, c.stage, c.rank, ct.text from trace_chunks c ${BY_TRACE} ${JOIN_CHUNK_TEXT}
  where c.project_id = ?1 and c.trace_id in (select value from json_each(?2))`;

/**
 * Gives the chunks of traces with a correction their text, which diagnosing them compares with
 * the correction; the other chunks' texts stay in the database (review items take theirs there).
 */
async function withTexts({ db, projectId }: StageContext, chunks: Map<string, ChunkRow[]>, events: Map<string, TrustedEvent[]>): Promise<void> {
  const corrected = [...events].filter(([, list]) => list.some((e) => e.signal_type === 'correction')).map(([traceId]) => traceId);
  if (corrected.length === 0) return;
  const { results } = await db
    .prepare(TRACE_TEXTS_SQL)
    .bind(projectId, JSON.stringify(corrected))
    .all<{ traceId: string; stage: string; rank: number; text: string }>();
  const text = new Map(results.map((r) => [`${r.traceId}\u0000${r.stage}\u0000${r.rank}`, r.text]));
  for (const traceId of corrected) for (const c of chunks.get(traceId) ?? []) c.text = text.get(`${traceId}\u0000${c.stage}\u0000${c.rank}`) ?? '';
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const ENGAGEMENT: Record<string, MiningTrace['engaged'][number]['kind']> = { citation_click: 'click', citation_dwell: 'dwell', copy_source: 'copy' };

function miningTrace(t: ScoredTrace, chunks: readonly ChunkRow[], events: readonly TrustedEvent[]): MiningTrace {
  const trace: MiningTrace = {
    traceId: t.trace_id,
    query: t.query,
    score: t.weighted_score,
    chunks: [...chunks],
    flagged: [],
    engaged: [],
    corrections: [],
    reasons: [],
  };
  for (const e of events) {
    const detail = e.parsed;
    const chunkId = typeof detail.chunkId === 'string' ? detail.chunkId : undefined;
    if (e.signal_type === 'wrong_source' && chunkId) trace.flagged.push({ chunkId, confidence: e.confidence });
    else if (e.signal_type === 'citation_dwell' && !isFocusedDwell(detail.ms)) continue;
    else if (ENGAGEMENT[e.signal_type] && chunkId) trace.engaged.push({ chunkId, kind: ENGAGEMENT[e.signal_type]!, confidence: e.confidence });
    else if (e.signal_type === 'correction')
      trace.corrections.push({ text: String(detail.text), ...(typeof detail.source === 'string' && { source: detail.source }), confidence: e.confidence });
    else if (e.signal_type === 'attribution' && typeof detail.reason === 'string') trace.reasons.push(detail.reason);
  }
  return trace;
}

interface CandidateRow {
  itemId: string;
  key: string;
  query: string;
  traceId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  evidence: Evidence[];
  guess: string;
  guessWhy: GuessWhy;
  rank: number;
  score: number;
  chunk: MinedChunk;
}

/**
 * Stores each trace's contribution, inserts the items that are new (held: the queue stage decides
 * what a reviewer sees) and lists the touched items for the second pass, which sets every field
 * of an item once per run from all its rows. An item many slices touch is not rewritten by each.
 * Neither is written for a question that joined the curated suite since the slice read it.
 */
async function saveCandidates({ db, projectId, night, now }: StageContext, rows: readonly CandidateRow[]): Promise<void> {
  const heldOut = new Map(rows.map((r) => [r.key, isHeldOut(r.key)]));
  await db.batch([
    ...jsonArrays(rows.map(({ chunk, query, ...r }) => ({ ...r, heldOut: heldOut.get(r.key) }))).map((part) =>
      db
        .prepare(
          `insert into review_item_traces (project_id, item_id, trace_id, candidate, weight, evidence, rank, score, guess, guess_why, mined_at)
           select ?1, value ->> 'itemId', value ->> 'traceId', value ->> 'candidate', value ->> 'weight', value -> 'evidence', value ->> 'rank', value ->> 'score',
             value ->> 'guess', value -> 'guessWhy', ?2
           from json_each(?3) where ${stillStoredSql("value ->> 'traceId'")} and ${worthReviewingSql("value ->> 'key'", "value ->> 'heldOut'", '?1')}
           on conflict (project_id, item_id, trace_id) do update set candidate = excluded.candidate, weight = excluded.weight, evidence = excluded.evidence,
             rank = excluded.rank, score = excluded.score, guess = excluded.guess, guess_why = excluded.guess_why`,
        )
        .bind(projectId, now, part),
    ),
    ...jsonArrays(newItemRows(rows).map((item) => ({ ...item, heldOut: heldOut.get(item.key) }))).map((part) =>
      db
        .prepare(
          // Every field is the second pass's to set, from the item's rows and its latest trace; an item
          // is new only while one of the slice's traces that raise it is still stored.
          `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, source_doc_version, chunk_text, rank, score, candidate,
             guess, guess_why, evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
           select ?1, n.value ->> 'itemId', n.value ->> 'key', '', n.value ->> 'chunkId', n.value ->> 'sourceDocId', n.value ->> 'sourceDocVersion', '',
             n.value ->> 'rank', n.value ->> 'score', n.value ->> 'candidate', n.value ->> 'guess', '', '[]', 0, 0, 0, 'held', ?2, ?2
           from json_each(?3) n where not exists (select 1 from review_items r where r.project_id = ?1 and r.item_id = n.value ->> 'itemId')
             and exists (select 1 from json_each(n.value -> 'traceIds') t where ${stillStoredSql('t.value')})
             and ${worthReviewingSql("n.value ->> 'key'", "n.value ->> 'heldOut'", '?1')}`,
        )
        .bind(projectId, now, part),
    ),
    ...jsonArrays([...new Set(rows.map((r) => r.itemId))]).map((part) =>
      db
        .prepare(`insert or ignore into loop_touched (project_id, night, kind, key) select ?1, ?2, 'item', value from json_each(?3)`)
        .bind(projectId, night, part),
    ),
  ]);
}

/** Each item the slice raises, as a new item starts: its pair, its first candidate's placing, and the traces raising it. */
interface NewItem
  extends Pick<CandidateRow, 'itemId' | 'key' | 'rank' | 'score' | 'candidate' | 'guess'>,
    Pick<MinedChunk, 'chunkId' | 'sourceDocId' | 'sourceDocVersion'> {
  traceIds: string[];
}

function newItemRows(rows: readonly CandidateRow[]): NewItem[] {
  const out = new Map<string, NewItem>();
  for (const { itemId, key, rank, score, candidate, guess, traceId, chunk } of rows) {
    const item = out.get(itemId);
    if (item) item.traceIds.push(traceId);
    else
      out.set(itemId, {
        itemId,
        key,
        rank,
        score,
        candidate,
        guess,
        chunkId: chunk.chunkId,
        sourceDocId: chunk.sourceDocId,
        sourceDocVersion: chunk.sourceDocVersion,
        traceIds: [traceId],
      });
  }
  return [...out.values()];
}

/**
 * Recomputes a slice of the touched items from all their rows (storage/review-recompute.ts). An
 * item a trace mined again no longer raises, left without rows, goes, unless a reviewer answered it.
 */
async function recomputeItems(ctx: StageContext, after: string): Promise<SliceResult> {
  const { db, projectId, now } = ctx;
  const slice = sliceKeysSql('item');
  const params = sliceParams(ctx, after || null, ITEMS_PER_SLICE);
  const [keyRows, aggregates] = await db.batch([
    db.prepare(slice).bind(...params),
    db.prepare(itemAggregatesSql(slice, '?5')).bind(...params, ITEM_EVIDENCE_LINES),
    db
      .prepare(
        `delete from review_items where project_id = ?1 and item_id in (${slice}) and status <> 'answered'
           and not exists (select 1 from review_item_traces r where r.project_id = ?1 and r.item_id = review_items.item_id)`,
      )
      .bind(...params),
  ]);
  const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
  const writes = writeItemAggregates(db, projectId, now, aggregates!.results);
  if (writes.length) await db.batch(writes);
  const next = nextCursor(ctx, keys, ITEMS_PER_SLICE);
  // The last slice builds again what a bulk load deferred.
  const restoredIndexes = next === null ? await restoreOwnIndexes(db, { projectId, night: ctx.night }) : 0;
  return { cursor: next === null ? null : ITEMS + next, counts: { items: aggregates!.results.length, ...(restoredIndexes > 0 && { restoredIndexes }) } };
}
