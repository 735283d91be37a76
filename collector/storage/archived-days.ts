import { DAY_MS, utcDay } from '../../shared/time.ts';
import { ARCHIVE_KINDS, type ArchiveKind } from './schema/index.ts';
import { PURGED_BEFORE_SQL } from './sql/purged-before.ts';
import { utcDaySql } from './sql/utc-day.ts';

export interface ArchivedDay {
  kind: ArchiveKind;
  day: string;
  rows: number;
  lastReceivedAt: number;
  stale: boolean;
  /** Pieces the day may have (schema/archive.ts). */
  pieces: number;
}

/** The first day there is. */
export const EPOCH_DAY = '1970-01-01';

/** The day after a `YYYY-MM-DD` day. */
export const nextDay = (day: string) => utcDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);

/** The start of a `YYYY-MM-DD` day (epoch ms). */
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The first arrival at or after ?2 (epoch ms) among the project's (?1) raw rows, as `first`, null
 * when there is none: each table's by an index seek (for events, one per signal type).
 */
const FIRST_RAW_ARRIVAL_SQL = `with recursive types (t) as (
    select min(signal_type) from feedback_events where project_id = ?1
    union all select (select min(signal_type) from feedback_events where project_id = ?1 and signal_type > t) from types where t is not null
  )
  select min(x) as first from (
    select min(received_at) as x from traces where project_id = ?1 and received_at >= ?2
    union all
    select (select min(e.received_at) from feedback_events e where e.project_id = ?1 and e.signal_type = types.t and e.received_at >= ?2)
    from types where t is not null
  )`;

/** The first UTC day on or after `day` with raw rows of the project, null when none has. */
export async function nextDayWithRows(db: D1Database, projectId: string, day: string): Promise<string | null> {
  const r = await db.prepare(FIRST_RAW_ARRIVAL_SQL).bind(projectId, dayStart(day)).first<{ first: number | null }>();
  return r?.first == null ? null : utcDay(r.first);
}

/** The project's archived days from `from` (inclusive) to `to` (exclusive), keyed `kind/day`. */
export async function archivedDaysBetween(db: D1Database, projectId: string, from: string, to: string): Promise<Map<string, ArchivedDay>> {
  const { results } = await db
    .prepare(
      `select kind, day, rows, last_received_at as lastReceivedAt, stale, pieces from archived_days
       where project_id = ? and day >= ? and day < ?`,
    )
    .bind(projectId, from, to)
    .all<ArchivedDay>();
  return new Map(results.map((r) => [`${r.kind}/${r.day}`, { ...r, stale: Boolean(r.stale) }]));
}

/**
 * Marks a day as being written (rows -1, not stale) before its rows are read: an erasure that
 * marks it stale meanwhile keeps it so once it is written (`recordArchivedDay` leaves the mark),
 * and one whose writing failed halfway is written again and never counts as archived.
 */
export const beginArchivingDay = (db: D1Database, projectId: string, kind: ArchiveKind, day: string, now: number) =>
  db
    .prepare(
      `insert into archived_days (project_id, kind, day, rows, last_received_at, stale, archived_at) values (?, ?, ?, -1, 0, 0, ?)
       on conflict (project_id, kind, day) do update set rows = -1, last_received_at = 0, stale = 0, archived_at = excluded.archived_at`,
    )
    .bind(projectId, kind, day, now);

/** Records what a day's objects now hold, in how many pieces. */
export const recordArchivedDay = (
  db: D1Database,
  projectId: string,
  kind: ArchiveKind,
  day: string,
  written: { rows: number; lastReceivedAt: number; pieces: number },
  now: number,
) =>
  db
    .prepare(
      `insert into archived_days (project_id, kind, day, rows, last_received_at, pieces, archived_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (project_id, kind, day) do update set rows = excluded.rows, last_received_at = excluded.last_received_at,
         pieces = excluded.pieces, archived_at = excluded.archived_at`,
    )
    .bind(projectId, kind, day, written.rows, written.lastReceivedAt, written.pieces, now);

/** Before a day's piece `piece` is written: the day may have that many pieces from then on. */
export const notePiece = (db: D1Database, projectId: string, kind: ArchiveKind, day: string, piece: number) =>
  db.prepare('update archived_days set pieces = max(pieces, ?) where project_id = ? and kind = ? and day = ?').bind(piece, projectId, kind, day);

/** After an erasure took `removed` lines out of one of a purged day's pieces. */
export const linesErased = (db: D1Database, projectId: string, kind: ArchiveKind, day: string, removed: number, now: number) =>
  db
    .prepare('update archived_days set rows = max(rows - ?, 0), archived_at = ? where project_id = ? and kind = ? and day = ?')
    .bind(removed, now, projectId, kind, day);

/** Whether a day's object holds its rows as they were when it was written: written whole, and no erasure since. */
export const isCurrent = (record: ArchivedDay | undefined): record is ArchivedDay => record !== undefined && !record.stale && record.rows >= 0;

/**
 * Statements marking stale the archived days of the raw rows an erasure is about to delete: the
 * events and traces of the traces ?2 (a JSON array of ids) of the project ?1. Run before the
 * deletes, in their transaction; the next night writes those days again from what is left.
 */
export function markErasedDaysStale(d1: D1Database, projectId: string, traceIdsJson: string): Record<`${ArchiveKind}Archive`, D1PreparedStatement> {
  const days = {
    events: `select ${utcDaySql('received_at')} from feedback_events where project_id = ?1 and trace_id in (select value from json_each(?2))`,
    traces: `select ${utcDaySql('received_at')} from traces where project_id = ?1 and trace_id in (select value from json_each(?2))`,
  } satisfies Record<ArchiveKind, string>;
  const stale = (kind: ArchiveKind) =>
    d1.prepare(`update archived_days set stale = 1 where project_id = ?1 and kind = '${kind}' and day in (${days[kind]})`).bind(projectId, traceIdsJson);
  return { eventsArchive: stale('events'), tracesArchive: stale('traces') };
}

/**
 * Where retention may purge raw rows up to when the archive is on: the start of the first day
 * before `cutoff` that has raw rows and is not archived as current in every kind (never
 * archived, written halfway, or stale since an erasure), else `cutoff`. The archive stage runs first in the
 * night and writes or checks every such day, so this holds back only a day it could not write.
 * Days archived are passed without a query; each run of days with no rows costs one.
 */
export async function archivedCutoff(db: D1Database, projectId: string, cutoff: number): Promise<number> {
  const end = utcDay(cutoff);
  let day = await nextDayWithRows(db, projectId, EPOCH_DAY);
  if (day === null || day >= end) return cutoff;
  const { results } = await db
    .prepare(
      `select day from archived_days where project_id = ? and day >= ? and day < ? and not stale and rows >= 0
       group by day having count(*) = ${ARCHIVE_KINDS.length}`,
    )
    .bind(projectId, day, end)
    .all<{ day: string }>();
  const archived = new Set(results.map((r) => r.day));
  while (day !== null && day < end) {
    if (archived.has(day)) day = nextDay(day);
    else {
      const found: string | null = await nextDayWithRows(db, projectId, day);
      if (found === day) return dayStart(day);
      day = found;
    }
  }
  return cutoff;
}

/**
 * Asks the archive to take a user's lines out of the days retention purged
 * (jobs/stages/archive-erasures.ts): only when it holds such a day, so the request, which names
 * the user, is kept only as long as there is something to erase it from.
 */
export const requestArchiveErasure = (d1: D1Database, projectId: string, userIdHash: string, now: number) =>
  d1
    .prepare(
      `insert into archive_erasures (project_id, user_id_hash, requested_at) select ?1, ?2, ?3
       where exists (select 1 from archived_days where project_id = ?1 and rows > 0 and ${PURGED_DAY_SQL})
       on conflict (project_id, user_id_hash) do update set requested_at = excluded.requested_at`,
    )
    .bind(projectId, userIdHash, now);

/** Whether an archived day's (`day`) rows were purged: its object is the only copy left. */
export const PURGED_DAY_SQL = `unixepoch(day) * 1000 < ${PURGED_BEFORE_SQL}`;
