import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CORRECTION_STATUSES } from '../../../shared/admin-api/documents.ts';
import { GUESSES, REVIEW_STATUSES, VERDICTS } from '../../../shared/admin-api/review.ts';
import type { StoredEvidence } from '../stored-evidence.ts';
import { ms } from './columns.ts';

/**
 * One question for a reviewer: does this chunk help answer this query? One item per question
 * (near-identical queries share one), however many traces raised it.
 */
export const reviewItems = sqliteTable(
  'review_items',
  {
    projectId: text('project_id').notNull(),
    /** Stable id of (query key, chunk id). */
    itemId: text('item_id').notNull(),
    queryKey: text('query_key').notNull(),
    /** The query as a user typed it (the latest trace's). */
    query: text('query').notNull(),
    chunkId: text('chunk_id').notNull(),
    sourceDocId: text('source_doc_id').notNull(),
    sourceDocVersion: text('source_doc_version'),
    chunkText: text('chunk_text').notNull(),
    /** Best rank and its score among the traces. */
    rank: integer('rank').notNull(),
    score: real('score').notNull(),
    /** What the evidence says the answer is: a hard negative or a positive. */
    candidate: text('candidate', { enum: ['negative', 'positive'] }).notNull(),
    guess: text('guess', { enum: GUESSES }).notNull(),
    /** A code's JSON (shared/admin-api/guess-why.ts); an item not recomputed since codes were stored keeps the English sentence. */
    guessWhy: text('guess_why').notNull(),
    /** Codes (shared/admin-api/evidence.ts); an item not recomputed since they were stored keeps English lines. */
    evidence: text('evidence', { mode: 'json' }).$type<StoredEvidence[]>().notNull(),
    traceCount: integer('trace_count').notNull(),
    /** Mean evidence weight over its traces. */
    weight: real('weight').notNull(),
    /** The queue's order: evidence times reach (loop/mining.ts `expectedValue`). */
    expectedValue: real('expected_value').notNull(),
    /** pending: in the queue; held: below the mining threshold or past the week's budget for now; answered. */
    status: text('status', { enum: REVIEW_STATUSES }).notNull(),
    verdict: text('verdict', { enum: VERDICTS }),
    note: text('note'),
    answeredAt: ms('answered_at'),
    minedAt: ms('mined_at').notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.itemId] }),
    index('review_items_queue').on(t.projectId, t.status, t.expectedValue),
    index('review_items_answered').on(t.projectId, t.answeredAt),
  ],
);

/** The traces behind each item, with what each contributed: counts are recomputed from here, so re-mining a trace adds nothing. */
export const reviewItemTraces = sqliteTable(
  'review_item_traces',
  {
    projectId: text('project_id').notNull(),
    itemId: text('item_id').notNull(),
    traceId: text('trace_id').notNull(),
    candidate: text('candidate', { enum: ['negative', 'positive'] }).notNull(),
    weight: real('weight').notNull(),
    /** Codes (shared/admin-api/evidence.ts), or English lines in a row mined before they were stored. */
    evidence: text('evidence', { mode: 'json' }).$type<StoredEvidence[]>().notNull(),
    rank: integer('rank').notNull(),
    score: real('score').notNull(),
    guess: text('guess', { enum: GUESSES }).notNull(),
    /** A code's JSON (shared/admin-api/guess-why.ts), or the English sentence in a row mined before codes were stored. */
    guessWhy: text('guess_why').notNull(),
    minedAt: ms('mined_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.itemId, t.traceId] }), index('review_item_traces_trace').on(t.projectId, t.traceId)],
);

/**
 * Waiting items whose answers retention purged some of, listed as it purges them: an item left
 * without a stored answer goes, and retention looks at these alone, not every item waiting.
 */
export const reviewItemChecks = sqliteTable(
  'review_item_checks',
  {
    projectId: text('project_id').notNull(),
    itemId: text('item_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.itemId] })],
);

/** Every change of the mining threshold, with its reason: the queue's own audit trail. */
export const miningThresholds = sqliteTable(
  'mining_thresholds',
  {
    projectId: text('project_id').notNull(),
    at: ms('at').notNull(),
    from: real('from_value').notNull(),
    to: real('to_value').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.at] })],
);

/** A document (or one version of it) flagged stale by the nightly tests, with the evidence. */
export const documentFlags = sqliteTable(
  'document_flags',
  {
    projectId: text('project_id').notNull(),
    sourceDocId: text('source_doc_id').notNull(),
    /** '*' for the document as a whole, else the version users saw. */
    sourceDocVersion: text('source_doc_version').notNull(),
    reasons: text('reasons', { mode: 'json' }).$type<string[]>().notNull(),
    /** The counts the tests ran on. */
    counts: text('counts', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    negativeP: real('negative_p'),
    requeryP: real('requery_p'),
    /** The worst recent answers citing it. */
    evidence: text('evidence', { mode: 'json' }).$type<string[]>().notNull(),
    firstFlagged: text('first_flagged').notNull(),
    lastFlagged: text('last_flagged').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.sourceDocId, t.sourceDocVersion] })],
);

/** Who owns which documents: the first pattern that matches a document id (`*` wildcards). */
export const documentOwners = sqliteTable(
  'document_owners',
  {
    projectId: text('project_id').notNull(),
    position: integer('position').notNull(),
    pattern: text('pattern').notNull(),
    owner: text('owner').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.position] })],
);

/**
 * The version of a project's owner rules (as versioned-row.ts keeps one for a settings row): moved
 * on in the batch that rewrites the rules, so a save made from an older read is refused. No row: 0.
 */
export const documentOwnersVersions = sqliteTable('document_owners_versions', {
  projectId: text('project_id').primaryKey(),
  updatedAt: ms('updated_at').notNull(),
});

/** Free-text corrections, routed to the owner of the document they are about; never training data. */
export const corrections = sqliteTable(
  'corrections',
  {
    projectId: text('project_id').notNull(),
    eventId: text('event_id').notNull(),
    /** The answer it was sent on, and that answer's question. */
    traceId: text('trace_id').notNull(),
    query: text('query').notNull(),
    /**
     * The answer it is about when the multi-turn attribution moved it off the one it was sent on (an
     * earlier turn), else null: the inbox lists it with that answer's question and trace.
     */
    attributedTraceId: text('attributed_trace_id'),
    text: text('text').notNull(),
    /** Where the user says the right answer is written, if they said. */
    source: text('source'),
    /** The document it is routed by: the one the source names, else the answer's first cited one. */
    sourceDocId: text('source_doc_id'),
    confidence: real('confidence').notNull(),
    status: text('status', { enum: CORRECTION_STATUSES }).notNull(),
    note: text('note'),
    resolvedAt: ms('resolved_at'),
    /**
     * The owner it was routed to when resolved, so later owner rules do not move it to another
     * inbox: '' when no rule matched then; null when resolved before this was recorded (the
     * current rules stand in).
     */
    resolvedOwner: text('resolved_owner'),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId] }), index('corrections_status').on(t.projectId, t.status, t.createdAt)],
);
