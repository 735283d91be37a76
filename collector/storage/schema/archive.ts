import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { ms } from './columns.ts';

/** The raw tables the nightly archive writes to R2, one object (or a few pieces) per project, kind and UTC day of arrival. */
export const ARCHIVE_KINDS = ['events', 'traces'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/**
 * Each UTC day of arrival of a raw table the archive stage wrote (jobs/stages/archive.ts), with
 * what it held then: a day whose rows still count as many, up to the same last arrival, is not
 * written again; one that differs (rows that came late) is, before retention purges it.
 */
export const archivedDays = sqliteTable(
  'archived_days',
  {
    projectId: text('project_id').notNull(),
    kind: text('kind', { enum: ARCHIVE_KINDS }).notNull(),
    /** UTC day of arrival, YYYY-MM-DD. */
    day: text('day').notNull(),
    /** Rows the day's objects hold; 0 for a day with none, which has no object. */
    rows: integer('rows').notNull(),
    /**
     * Objects the day may have, its pieces (archive-rows.ts, `archiveKey`): a day of more rows than
     * one slice writes is written a piece a slice. Raised before each piece is written, so no piece
     * ever stored lies beyond it; set to the pieces written once the day is.
     */
    pieces: integer('pieces').notNull().default(1),
    /** The latest arrival among them (epoch ms), 0 for none. */
    lastReceivedAt: ms('last_received_at').notNull(),
    /** Set by an erasure that deleted rows of the day: written again before anything else of it is purged. */
    stale: integer('stale', { mode: 'boolean' }).notNull().default(false),
    archivedAt: ms('archived_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind, t.day] })],
);

/**
 * Users erased (storage/erasure.ts) whose lines the archive has still to take out of the objects
 * of days retention purged, the only copy left of those days (jobs/stages/archive-erasures.ts).
 * Days still stored are written again from what the erasure left (`archived_days.stale`).
 */
export const archiveErasures = sqliteTable(
  'archive_erasures',
  {
    projectId: text('project_id').notNull(),
    userIdHash: text('user_id_hash').notNull(),
    requestedAt: ms('requested_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userIdHash] })],
);
