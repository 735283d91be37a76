import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { SignalSpec } from '../../../shared/signals.ts';
import { ms } from './columns.ts';

/** One row per answer: the retrieval trace the RAG backend logged. */
export const traces = sqliteTable(
  'traces',
  {
    projectId: text('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    sessionId: text('session_id'),
    userIdHash: text('user_id_hash'),
    turnIndex: integer('turn_index'),
    query: text('query').notNull(),
    rewrittenQuery: text('rewritten_query'),
    topK: integer('top_k'),
    threshold: real('threshold'),
    embeddingModel: text('embedding_model'),
    prompt: text('prompt'),
    answer: text('answer').notNull(),
    model: text('model').notNull(),
    rerankerVersion: text('reranker_version'),
    intent: text('intent'),
    knowledgeBase: text('knowledge_base'),
    createdAt: ms('created_at').notNull(),
    receivedAt: ms('received_at').notNull(),
    /** When its question says the answer before it was wrong: the id of the event that says so on that answer (storage/pushbacks.ts). */
    pushbackEventId: text('pushback_event_id'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId] }),
    index('traces_created').on(t.projectId, t.createdAt),
    // A session's turns in conversation order without reading the rows (the nightly job's attribution
    // windows). Not trace_id too: a covering index would lure lookups by trace id into scanning it.
    index('traces_session').on(t.projectId, t.sessionId, t.turnIndex, t.createdAt),
    // The nightly job's window: what arrived since its last run.
    index('traces_received').on(t.projectId, t.receivedAt),
  ],
);

const CHUNK_STAGES = ['retrieved', 'reranked'] as const;

/** A row per chunk per stage, so "chunk 3 of 5 was the culprit" can be asked in SQL; the text is in chunk_texts. */
export const traceChunks = sqliteTable(
  'trace_chunks',
  {
    projectId: text('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    stage: text('stage', { enum: CHUNK_STAGES }).notNull(),
    rank: integer('rank').notNull(),
    chunkId: text('chunk_id').notNull(),
    sourceDocId: text('source_doc_id').notNull(),
    sourceDocVersion: text('source_doc_version'),
    score: real('score').notNull(),
    /**
     * Whether its trace's last stage (reranked when there is one) ranked it in the first
     * TOP_RANKS, set once when the trace is stored; null for rows stored before the column.
     */
    topRanked: integer('top_ranked', { mode: 'boolean' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId, t.stage, t.rank] }),
    // Whether a text of the chunk (per document version) is still used, which retention asks of
    // every chunk whose rows it purged, answered from the index alone. Nothing else reads chunk rows
    // by chunk (the chunk aggregates are running totals), so it holds no more: every row's entry is
    // deleted with it, and a purge's deletes were mostly this index's pages.
    index('trace_chunks_chunk').on(t.projectId, t.chunkId, t.sourceDocVersion),
  ],
);

/**
 * Each chunk's text once per project, chunk id and document version, however many traces
 * retrieved it: at a million traces the text repeated per trace would be most of the database.
 * The first text stored for a chunk id and version is kept: a backend that changes a chunk's text
 * gives it a new document version (or chunk id).
 */
export const chunkTexts = sqliteTable(
  'chunk_texts',
  {
    projectId: text('project_id').notNull(),
    chunkId: text('chunk_id').notNull(),
    /** '' when the backend sent no version. */
    sourceDocVersion: text('source_doc_version').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.chunkId, t.sourceDocVersion] })],
);

/**
 * Chunks some of whose rows were deleted (by retention or an erasure) since retention last looked:
 * a text of theirs may be used by no row any more. Retention checks these alone, not every text.
 */
export const chunkTextChecks = sqliteTable(
  'chunk_text_checks',
  {
    projectId: text('project_id').notNull(),
    chunkId: text('chunk_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.chunkId] })],
);

/**
 * Every feedback event ever accepted: an audit record, never updated but for `superseded`.
 * Indexed for what the write path and the admin API need and no more: each index costs every
 * insert, and the nightly job can afford a scan where a request cannot.
 * No foreign key to traces: feedback may arrive before its trace and joins it by id.
 */
export const feedbackEvents = sqliteTable(
  'feedback_events',
  {
    projectId: text('project_id').notNull(),
    eventId: text('event_id').notNull(),
    traceId: text('trace_id').notNull(),
    sessionId: text('session_id').notNull(),
    signalType: text('signal_type').notNull(),
    /** From the one signal table; NULL for context-only events, which AVG skips. */
    signalValue: real('signal_value'),
    /** Vote flips: events of one group supersede each other per session and trace. */
    signalGroup: text('signal_group').$type<SignalSpec['group']>(),
    /** 1 once a later event of the same group, session and trace replaced it. */
    superseded: integer('superseded', { mode: 'boolean' }).notNull().default(false),
    detail: text('detail', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    widgetVersion: text('widget_version'),
    /** Time from the answer being shown to the event, as the browser measured it. */
    shownMs: integer('shown_ms'),
    /** A truncated hash of the client address, salted per project: lets the noise filter see one address flooding. */
    ipHash: text('ip_hash'),
    clientTs: ms('client_ts').notNull(),
    receivedAt: ms('received_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.eventId] }),
    index('feedback_trace').on(t.projectId, t.traceId),
    index('feedback_type_received').on(t.projectId, t.signalType, t.receivedAt),
    // The events about one chunk, by arrival, for the per-chunk aggregates (a chunk's day is a range of it): most events name none and stay off it.
    index('feedback_events_chunk')
      .on(t.projectId, sql`json_extract(${t.detail}, '$.chunkId')`, t.receivedAt)
      .where(sql`json_type(${t.detail}, '$.chunkId') = 'text'`),
  ],
);

/**
 * What widgets report they had to drop because their offline outbox was full: one row per report,
 * keyed by the first event of the batch that carried it, so a batch sent again (its answer lost)
 * or the same report from another tab counts once. Summed per UTC day for loop health.
 */
export const clientDropReports = sqliteTable(
  'client_drop_reports',
  {
    projectId: text('project_id').notNull(),
    /** The first event of the batch carrying the report: the same when that batch is sent again. */
    eventId: text('event_id').notNull(),
    /** UTC day, YYYY-MM-DD, the report first arrived. */
    day: text('day').notNull(),
    /** The most any sending of it reported: a retry carries the drops since, too. */
    dropped: integer('dropped').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId] }), index('client_drop_reports_day').on(t.projectId, t.day)],
);
