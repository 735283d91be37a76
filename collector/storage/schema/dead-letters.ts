import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ms } from './columns.ts';
import type { feedbackEvents } from './ingest.ts';

/**
 * A queued message's body, as ingest-queue/messages.ts `QueuedEvents` (the consumer keeps one and
 * replays it, so the compiler checks both ways), spelt here since the schema is read by Node tools
 * too, which know nothing of queues.
 */
type KeptMessage = { rows: Omit<typeof feedbackEvents.$inferInsert, 'receivedAt'>[]; dropped?: number; firstEventId?: string };

/**
 * Queued events the consumer could not write, kept from the dead-letter queue (whose retention
 * would drop them) until an admin replays them (`GET /v1/admin/dead-letters` and its `/replay`),
 * or the retention stage purges them with raw rows.
 * A message holds one request's rows, so it belongs to that request's project.
 */
export const deadLetters = sqliteTable(
  'dead_letters',
  {
    projectId: text('project_id').notNull(),
    /** The queue message's id: the same message delivered twice is kept once. */
    id: text('id').notNull(),
    /** When the dead-letter queue's consumer kept it. */
    deadLetteredAt: ms('dead_lettered_at').notNull(),
    /** The message's body as queued. */
    message: text('message', { mode: 'json' }).$type<KeptMessage>().notNull(),
    /** The last write's error, as D1 gave it. */
    error: text('error').notNull(),
    /** Writes that failed since it was dead-lettered: the consumer's, then each replay's. */
    attempts: integer('attempts').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);
