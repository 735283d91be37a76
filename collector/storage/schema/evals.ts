import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { SuiteQuery } from '../../../shared/schema/eval-suite.ts';
import { ms } from './columns.ts';

/** One frozen version (an ISO week) of one eval layer. */
export const evalSets = sqliteTable(
  'eval_sets',
  {
    projectId: text('project_id').notNull(),
    layer: text('layer').notNull(),
    version: text('version').notNull(),
    items: integer('items').notNull(),
    createdAt: ms('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.layer, t.version] })],
);

/** An eval query: the trace whose retrieved chunks are its candidates, and the known labels. */
export const evalItems = sqliteTable(
  'eval_items',
  {
    projectId: text('project_id').notNull(),
    layer: text('layer').notNull(),
    version: text('version').notNull(),
    position: integer('position').notNull(),
    query: text('query').notNull(),
    queryKey: text('query_key').notNull(),
    /** Its candidates are this trace's retrieved chunks. */
    traceId: text('trace_id').notNull(),
    /** Chunk id to relevance: 1 relevant, 0 not. */
    judgements: text('judgements', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** Where the labels came from, in words. */
    source: text('source').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.layer, t.version, t.position] }), index('eval_items_trace').on(t.projectId, t.traceId)],
);

/**
 * The labels of each held-out question the eval sets being built have read so far: each layer
 * that lists a question reads its labels here after the first, instead of through its answers
 * again. Emptied when a build starts and when it writes the week's sets.
 */
export const evalLabels = sqliteTable(
  'eval_labels',
  {
    projectId: text('project_id').notNull(),
    queryKey: text('query_key').notNull(),
    /** Chunk id to relevance, as eval items carry them; empty when the question has no labels. */
    judgements: text('judgements', { mode: 'json' }).$type<Record<string, number>>().notNull(),
    /** Where they came from: review, feedback or both. */
    sources: text('sources', { mode: 'json' }).$type<string[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.queryKey] })],
);

/** The loop's health, one snapshot a day. */
export const healthSnapshots = sqliteTable(
  'health_snapshots',
  {
    projectId: text('project_id').notNull(),
    day: text('day').notNull(),
    /** The night's figures, and `servedModel`: the version served that night. */
    metrics: text('metrics', { mode: 'json' }).$type<Record<string, number | null> & { servedModel?: string | null }>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
);

/**
 * The team's curated eval questions (`PUT /v1/admin/eval-suite/:queryId`): each with its
 * candidates and the team's own judgements, as sent. Never mined, never frozen: the team keeps it.
 */
export const evalSuite = sqliteTable(
  'eval_suite',
  {
    projectId: text('project_id').notNull(),
    queryId: text('query_id').notNull(),
    query: text('query').notNull(),
    /** What review and training group it under: reviewers' verdicts on it never train. */
    queryKey: text('query_key').notNull(),
    candidates: text('candidates', { mode: 'json' }).$type<SuiteQuery['candidates']>().notNull(),
    judgements: text('judgements', { mode: 'json' }).$type<SuiteQuery['judgements']>().notNull(),
    updatedAt: ms('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.queryId] }), index('eval_suite_key').on(t.projectId, t.queryKey)],
);
