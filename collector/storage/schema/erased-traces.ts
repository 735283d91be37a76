import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ms } from './columns.ts';

/**
 * The trace ids an erasure deleted (storage/erasure.ts), so that what arrives about them later is
 * not stored again: an event a widget's outbox or the queue delivers late, a dead letter replayed,
 * a trace a backend posts again (storage/events.ts, storage/traces.ts). Kept as long as raw rows are
 * (`retentionDays`, jobs/stages/retention.ts): nothing sent about an answer arrives usefully later.
 */
export const erasedTraces = sqliteTable(
  'erased_traces',
  {
    projectId: text('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    erasedAt: ms('erased_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.traceId] })],
);
