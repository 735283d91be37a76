import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { GateFinding } from '../../../shared/training/gate-findings.ts';
import { ms } from './columns.ts';

/**
 * Every reranker trained for a project, promoted or not (seed 000: rejected checkpoints are
 * logged), with the gate's metrics and decision. The artifact is the JSON `rerank()` reads.
 */
export const models = sqliteTable(
  'models',
  {
    projectId: text('project_id').notNull(),
    version: text('version').notNull(),
    /** Its night's moment (a night run with `?at=` may be days from the clock): the schedule counts nights from it. */
    createdAt: ms('created_at').notNull(),
    /**
     * When its training read the reviewers' answers, by the real clock they are stamped by: the
     * answers given after it are new to it. 0 (it saw none) only for a row written without it.
     */
    dataReadAt: ms('data_read_at').notNull().default(0),
    /**
     * Recorded without its read's time (`dataReadAt` then holds when the models before it read
     * theirs, a guess retraining goes by): loop health cannot say what it saw.
     */
    dataReadUnknown: integer('data_read_unknown', { mode: 'boolean' }).notNull().default(false),
    /** Who trained it: the nightly job or `npm run retrain`. */
    trainedBy: text('trained_by', { enum: ['nightly', 'retrain'] }).notNull(),
    /** Its first part; the rest, when it is longer than D1 takes in one value, in `model_parts`. */
    artifact: text('artifact').notNull(),
    bytes: integer('bytes').notNull(),
    /** Times the artifact was rewritten under its version (erasure takes users' questions out of its memory): part of its ETag. */
    revision: integer('revision').notNull().default(0),
    confirmed: integer('confirmed').notNull(),
    /** The model it was judged against; null for retrieval's own order. */
    comparedWith: text('compared_with'),
    /** retrieval, current and candidate evaluations (shared/training/gate.ts `Evaluation`). */
    evaluation: text('evaluation', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    decision: text('decision', { enum: ['promoted', 'rejected'] }).notNull(),
    reasons: text('reasons', { mode: 'json' }).$type<string[]>().notNull(),
    /** The gate's findings as data (shared/training/gate-findings.ts), `reasons` in the reader's language; empty before they were kept. */
    findings: text('findings', { mode: 'json' }).$type<GateFinding[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.version] }), index('models_created').on(t.projectId, t.createdAt)],
);

/** A model's artifact after its first part (`models.artifact`), in order: D1 takes at most 2 MB in one value. */
export const modelParts = sqliteTable(
  'model_parts',
  {
    projectId: text('project_id').notNull(),
    version: text('version').notNull(),
    /** 1 for the part after `models.artifact`, and so on. */
    part: integer('part').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.version, t.part] })],
);

/**
 * The rollout history: each promotion and rollback in order. The model users get is the top of
 * the stack it replays to, so a rollback always restores exactly what was served before.
 */
export const modelRollouts = sqliteTable(
  'model_rollouts',
  {
    projectId: text('project_id').notNull(),
    seq: integer('seq').notNull(),
    at: ms('at').notNull(),
    action: text('action', { enum: ['promote', 'rollback'] }).notNull(),
    /** The model promoted, or for a rollback the one rolled back. */
    version: text('version').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.seq] })],
);

/**
 * When a training last began to read a project's reviewed answers (by the real clock, its model's
 * `dataReadAt`): an answer saved after that is stamped later, so that the model never takes as seen
 * an answer its read may have missed, one stamped just before the read but saved after it (answerItem).
 */
export const trainingReads = sqliteTable('training_reads', {
  projectId: text('project_id').primaryKey(),
  readAt: ms('read_at').notNull(),
});
