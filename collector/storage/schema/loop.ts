import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { RUN_STATUSES, type StageReport } from '../../../shared/admin-api/nightly.ts';
import type { LoopSettings } from '../../../shared/schema/settings.ts';
import { ms } from './columns.ts';

/**
 * What the nightly loop makes of the stored signals. Everything here can be rebuilt from the
 * ingest tables within their retention; the raw events stay as they arrived.
 */

/**
 * The noise filter's verdict and the multi-turn attribution of an event where a rule or the
 * attribution changed them; an event without a row has the base verdict (storage/sql/verdict.ts).
 */
export const eventAssessments = sqliteTable(
  'event_assessments',
  {
    projectId: text('project_id').notNull(),
    eventId: text('event_id').notNull(),
    /** The trace the event was sent about. */
    traceId: text('trace_id').notNull(),
    /** The trace it counts for: its own, or an earlier turn it was attributed to. */
    attributedTraceId: text('attributed_trace_id').notNull(),
    /** On [0, 1]; below LOW_CONFIDENCE it is shown but never mined or trained on. */
    confidence: real('confidence').notNull(),
    /** The noise rules that fired, each with its reason. */
    rules: text('rules', { mode: 'json' }).$type<{ rule: string; reason: string }[]>().notNull(),
    /** Why the event was attributed where it was, and each candidate turn's score. */
    attribution: text('attribution', { mode: 'json' }).$type<{ reason: string; scores: { traceId: string; score: number }[] } | null>(),
    assessedAt: ms('assessed_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.eventId] }),
    index('event_assessments_attributed').on(t.projectId, t.attributedTraceId),
    // Events counted for another trace than their own: few, and what a trace's aggregate adds to its own events.
    index('event_assessments_moved').on(t.projectId, t.attributedTraceId).where(sql`${t.attributedTraceId} <> ${t.traceId}`),
  ],
);

/** Per trace: its score, the confidence-weighted score and its signal counts. */
export const traceStats = sqliteTable(
  'trace_stats',
  {
    projectId: text('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    /** Near-identical queries share it (shared/terms.ts `queryKey`). */
    queryKey: text('query_key').notNull(),
    createdAt: ms('created_at').notNull(),
    knowledgeBase: text('knowledge_base'),
    intent: text('intent'),
    model: text('model'),
    /** Mean value of the live scored signals (the seed's avg(signal_value)); null when none. */
    score: real('score'),
    /** Mean value weighted by confidence, over trusted signals only; null when none. */
    weightedScore: real('weighted_score'),
    /** Live scored signals, all and by kind: context and what only explains another signal are not counted (trace-aggregate.ts). */
    liveSignals: integer('live_signals').notNull(),
    explicitSignals: integer('explicit_signals').notNull(),
    implicitSignals: integer('implicit_signals').notNull(),
    /** Live scored signals at or above LOW_CONFIDENCE. */
    trustedSignals: integer('trusted_signals').notNull(),
    /** Mean confidence of the live scored signals. */
    confidence: real('confidence'),
    /** Whether the user asked the same thing again right after (a rephrase on this trace). */
    requeried: integer('requeried', { mode: 'boolean' }).notNull(),
    /**
     * Whether its chunks' aggregates have yet to count it: set when the row is first written,
     * cleared in the same batch that adds the trace to them, so each answer counts exactly once.
     */
    retrievalsPending: integer('retrievals_pending', { mode: 'boolean' }).notNull().default(false),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId] }),
    // The answers the chunk aggregates have yet to count: a night's, not the table.
    index('trace_stats_retrievals_pending').on(t.projectId, t.traceId).where(sql`${t.retrievalsPending} = 1`),
    index('trace_stats_score').on(t.projectId, t.weightedScore),
    // Covers a query's history (how its other answers scored) without reading the rows.
    index('trace_stats_query').on(t.projectId, t.queryKey, t.weightedScore),
    index('trace_stats_created').on(t.projectId, t.createdAt),
    // A question's answers with explicit feedback, the only ones that can give it an eval label:
    // about a third of the answers in the benchmark, read without their rows.
    index('trace_stats_explicit').on(t.projectId, t.queryKey, t.traceId, t.weightedScore, t.explicitSignals).where(sql`${t.explicitSignals} > 0`),
  ],
);

/**
 * Per query key: how many of its traces are scored and the sum of their weighted scores, kept in
 * step with `trace_stats` by triggers (migration 0007), so a query's history is one row to read
 * however many answers it has.
 */
export const queryScores = sqliteTable(
  'query_scores',
  {
    projectId: text('project_id').notNull(),
    queryKey: text('query_key').notNull(),
    /** Traces of the key with a weighted score. */
    traces: integer('traces').notNull(),
    /** The sum of their weighted scores. */
    total: real('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.queryKey] })],
);

/**
 * One night's run of the loop per project: where it is, so the next invocation continues a run
 * cut short, and what each stage did, so `GET /v1/admin/runs` can show it.
 */
export const loopRuns = sqliteTable(
  'loop_runs',
  {
    projectId: text('project_id').notNull(),
    /** The UTC day the run is for, YYYY-MM-DD: one run per project and night. */
    night: text('night').notNull(),
    status: text('status', { enum: RUN_STATUSES }).notNull(),
    /** Index into the job's stages of the stage to run next. */
    stage: integer('stage').notNull(),
    /** Where the stage stopped: the last key its previous slice handled. */
    cursor: text('cursor'),
    /** Data received after `windowFrom` and up to `windowTo` is new to this run. */
    windowFrom: ms('window_from').notNull(),
    windowTo: ms('window_to').notNull(),
    /** What stages computed once for all their slices (flooding sources). */
    state: text('state', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** Per stage: slices, milliseconds and counts. */
    stages: text('stages', { mode: 'json' }).$type<StageReport[]>().notNull(),
    startedAt: ms('started_at').notNull(),
    finishedAt: ms('finished_at'),
    /**
     * The invocation running the night now (a random id), and until when it holds it: another one
     * leaves the run, and the project's other nights, alone until then (storage/loop-runs.ts
     * `leaseRun`). Null when none runs it.
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: ms('lease_until'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.night] })],
);

export const TOUCHED_KINDS = ['trace', 'chunk_day', 'session', 'day', 'item', 'judged', 'query', 'question', 'mined'] as const;

/**
 * What a run has to recompute: traces touched by new events or new themselves, the sessions and
 * days of those traces and the days of chunks their events name (`chunk_day`: chunk id, U+0001,
 * day); and the lists mining walks question by question: the
 * touched traces it judges (`judged`: query key, U+0001, trace id), their query keys (`query`: each followed by U+0001)
 * and the same keys after their question's id (`question`: in the order of item ids), and the
 * rows earlier runs stored for the judged traces (`mined`: storage/sql/question-lists.ts). Emptied
 * when the run ends.
 */
export const loopTouched = sqliteTable(
  'loop_touched',
  {
    projectId: text('project_id').notNull(),
    night: text('night').notNull(),
    kind: text('kind', { enum: TOUCHED_KINDS }).notNull(),
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.night, t.kind, t.key] })],
);

/**
 * Each question's scores as the run first read them (its `query_scores` row then), so the noise
 * filter's history rule weighs a signal against the same figures whichever slice its answer falls
 * in: a slice before it may already have rescored some of the question's answers. Emptied when the
 * run ends.
 */
export const loopQueryHistory = sqliteTable(
  'loop_query_history',
  {
    projectId: text('project_id').notNull(),
    night: text('night').notNull(),
    queryKey: text('query_key').notNull(),
    traces: integer('traces').notNull(),
    total: real('total').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.night, t.queryKey] })],
);

/**
 * An answer's stored score as the run first found it, kept before a slice rescores it (its own, or
 * another's through attribution): its own slice, or the same slice run again, subtracts from
 * `loop_query_history` the score those totals hold. Null when it had none. Emptied when the run ends.
 */
export const loopTraceHistory = sqliteTable(
  'loop_trace_history',
  {
    projectId: text('project_id').notNull(),
    night: text('night').notNull(),
    traceId: text('trace_id').notNull(),
    queryKey: text('query_key'),
    weightedScore: real('weighted_score'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.night, t.traceId] })],
);

/**
 * Erasure's scratch list: other users' answers whose aggregates a batch of erasure must recompute
 * (those the attribution moved the user's signals onto, or took signals from onto the user's),
 * written and emptied within that batch's transaction, so it is empty between transactions.
 */
export const erasureRecompute = sqliteTable(
  'erasure_recompute',
  {
    projectId: text('project_id').notNull(),
    traceId: text('trace_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.traceId] })],
);

/**
 * What an erasure takes out of the stored models once the user's traces are gone (storage/erasure-memory.ts):
 * `terms`, the SHA-256 of the set of terms of each of their questions (a model's memory query with
 * the same set goes), kept by the batch that deletes the traces; `model`, the versions still to
 * scrub. Emptied when every model is.
 */
export const erasureMemory = sqliteTable(
  'erasure_memory',
  {
    projectId: text('project_id').notNull(),
    userIdHash: text('user_id_hash').notNull(),
    kind: text('kind', { enum: ['terms', 'model'] }).notNull(),
    key: text('key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userIdHash, t.kind, t.key] })],
);

/**
 * The questions of erasures finished in the last `TRAINING_DATA_MAX_AGE_MS` (their term sets' SHA-256,
 * as `erasure_memory` kept them), with when each finished: a model trained from data read before that
 * is recorded without them (storage/erasure-memory.ts). Retention deletes them after that long.
 */
export const erasedQuestions = sqliteTable(
  'erased_questions',
  {
    projectId: text('project_id').notNull(),
    key: text('key').notNull(),
    erasedAt: ms('erased_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.key] })],
);

/**
 * Secondary indexes a stage dropped while it writes most of their table, with the statement that
 * builds each again and the run that dropped it (storage/deferred-indexes.ts). Indexes belong to
 * the database, not a project: other projects' runs leave one alone while its run goes on.
 */
export const deferredIndexes = sqliteTable('deferred_indexes', {
  name: text('name').primaryKey(),
  definition: text('definition').notNull(),
  projectId: text('project_id').notNull(),
  night: text('night').notNull(),
  deferredAt: ms('deferred_at').notNull(),
});

/** A project's loop settings (absent: defaults), validated by shared/schema/settings.ts. */
export const loopSettings = sqliteTable('loop_settings', {
  projectId: text('project_id').primaryKey(),
  settings: text('settings', { mode: 'json' }).$type<LoopSettings>().notNull(),
  updatedAt: ms('updated_at').notNull(),
});

/**
 * Per chunk: how often it was retrieved and what users did with it when cited. Its retrieval
 * counts are running totals, each answer added once when first aggregated, and its signals the
 * sum of its days (`chunk_signal_days`), so both outlive the answers' and events' retention like
 * the other aggregates.
 */
export const chunkStats = sqliteTable(
  'chunk_stats',
  {
    projectId: text('project_id').notNull(),
    chunkId: text('chunk_id').notNull(),
    sourceDocId: text('source_doc_id').notNull(),
    /** Answers that retrieved it, at any stage. */
    retrieved: integer('retrieved').notNull(),
    /** Traces where it was among the chunks the model saw first (rank 1-3 of the last stage). */
    topRanked: integer('top_ranked').notNull(),
    clicks: integer('clicks').notNull(),
    /** Focused reads (>= FOCUSED_DWELL_MS) and the total time on it. */
    focusedDwells: integer('focused_dwells').notNull(),
    dwellMs: integer('dwell_ms').notNull(),
    copies: integer('copies').notNull(),
    wrongSourceFlags: integer('wrong_source_flags').notNull(),
    /** Mean value of its trusted chunk-level signals, weighted by confidence; null when none. */
    weightedScore: real('weighted_score'),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.chunkId] }), index('chunk_stats_doc').on(t.projectId, t.sourceDocId)],
);

/**
 * Per chunk and day of arrival: what that day's events about it (naming it in their detail) add
 * to its signal counts, the weighted score as its sum and weight. A night counts again only the
 * days its events fall on, and the chunk's counts are the sum of its days.
 */
export const chunkSignalDays = sqliteTable(
  'chunk_signal_days',
  {
    projectId: text('project_id').notNull(),
    chunkId: text('chunk_id').notNull(),
    /** UTC day the events arrived on, YYYY-MM-DD. */
    day: text('day').notNull(),
    clicks: integer('clicks').notNull(),
    focusedDwells: integer('focused_dwells').notNull(),
    dwellMs: integer('dwell_ms').notNull(),
    copies: integer('copies').notNull(),
    wrongSourceFlags: integer('wrong_source_flags').notNull(),
    scoreSum: real('score_sum').notNull(),
    scoreWeight: real('score_weight').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.chunkId, t.day] }), index('chunk_signal_days_day').on(t.projectId, t.day)],
);

/**
 * Per document, day and set of its versions of the answers citing it: the counts behind the
 * stale-document tests. Each answer is in one row per document, that of all the versions it cited
 * (two during a re-index), so a document's counts are the sum of its rows and a version's the sum
 * of the rows naming it.
 */
export const documentDays = sqliteTable(
  'document_days',
  {
    projectId: text('project_id').notNull(),
    sourceDocId: text('source_doc_id').notNull(),
    /** The versions these answers cited, a JSON array in SQLite's order ('' for a chunk the backend sent no version with). */
    sourceDocVersions: text('source_doc_versions').notNull(),
    day: text('day').notNull(),
    /** Answers that retrieved it, those versions of it and no other. */
    traces: integer('traces').notNull(),
    /** Of those, answers with trusted signals, and how many scored bad or good. */
    scored: integer('scored').notNull(),
    negative: integer('negative').notNull(),
    positive: integer('positive').notNull(),
    /** Answers whose question was re-asked right after. */
    requeried: integer('requeried').notNull(),
    /**
     * The day's worst of these answers, the evidence a flag shows: up to ten `[score, traceId]`
     * of those scored bad or re-asked, while the day is in the window documents are judged over
     * and its answers are stored (`[]` before and after). Null when the day must be counted again
     * for it: counted before the list was kept, or one of its answers erased since.
     */
    worst: text('worst'),
    /**
     * What the answers retention purged counted, included in the counts above: a day is counted
     * again from its stored answers plus these, so one imported late adds to it (see day_stats).
     */
    purgedTraces: integer('purged_traces').notNull().default(0),
    purgedScored: integer('purged_scored').notNull().default(0),
    purgedNegative: integer('purged_negative').notNull().default(0),
    purgedPositive: integer('purged_positive').notNull().default(0),
    purgedRequeried: integer('purged_requeried').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.sourceDocId, t.sourceDocVersions, t.day] }),
    index('document_days_day').on(t.projectId, t.day),
    // The days holding a list, which retention clears, and those to count again: few of either.
    index('document_days_listed').on(t.projectId, t.day).where(sql`${t.worst} <> '[]'`),
    index('document_days_unlisted').on(t.projectId, t.day).where(sql`${t.worst} is null`),
  ],
);

/** Per session: its length and how it went. */
export const sessionStats = sqliteTable(
  'session_stats',
  {
    projectId: text('project_id').notNull(),
    sessionId: text('session_id').notNull(),
    userIdHash: text('user_id_hash'),
    traces: integer('traces').notNull(),
    /** Traces with trusted signals, and of those the bad ones. */
    scored: integer('scored').notNull(),
    negative: integer('negative').notNull(),
    requeried: integer('requeried').notNull(),
    firstAt: ms('first_at').notNull(),
    lastAt: ms('last_at').notNull(),
    /**
     * What the session's answers retention purged counted, included in the counts above: a session
     * that goes on is counted again from its stored answers plus these.
     */
    purgedTraces: integer('purged_traces').notNull().default(0),
    purgedScored: integer('purged_scored').notNull().default(0),
    purgedNegative: integer('purged_negative').notNull().default(0),
    purgedRequeried: integer('purged_requeried').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.sessionId] }), index('session_stats_last').on(t.projectId, t.lastAt)],
);

/** Per UTC day of the answers: volume, feedback and its quality, for loop health. */
export const dayStats = sqliteTable(
  'day_stats',
  {
    projectId: text('project_id').notNull(),
    day: text('day').notNull(),
    traces: integer('traces').notNull(),
    /** Traces with a live scored signal (explicit or implicit feedback, not context), and with a trusted one. */
    withSignals: integer('with_signals').notNull(),
    withTrusted: integer('with_trusted').notNull(),
    explicitSignals: integer('explicit_signals').notNull(),
    implicitSignals: integer('implicit_signals').notNull(),
    /** Live scored signals, and those that survived the noise filter. */
    signals: integer('signals').notNull(),
    trustedSignals: integer('trusted_signals').notNull(),
    negative: integer('negative').notNull(),
    requeried: integer('requeried').notNull(),
    /**
     * What the day's answers retention purged counted, included in the counts above: the day is
     * counted again from its stored answers plus these, so an answer imported after its day's
     * others were purged adds to them. Null for a day counted before these were kept whose answers
     * were partly purged then: it stays as counted (its documents' rows too).
     */
    purgedTraces: integer('purged_traces').default(0),
    purgedWithSignals: integer('purged_with_signals').notNull().default(0),
    purgedWithTrusted: integer('purged_with_trusted').notNull().default(0),
    purgedExplicitSignals: integer('purged_explicit_signals').notNull().default(0),
    purgedImplicitSignals: integer('purged_implicit_signals').notNull().default(0),
    purgedSignals: integer('purged_signals').notNull().default(0),
    purgedTrustedSignals: integer('purged_trusted_signals').notNull().default(0),
    purgedNegative: integer('purged_negative').notNull().default(0),
    purgedRequeried: integer('purged_requeried').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);
