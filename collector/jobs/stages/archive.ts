import { ObjectTexts } from '../../../shared/archive-texts.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { objectLines, writeLines } from '../../storage/archive-objects.ts';
import { ARCHIVED_TABLES, archiveKey, rewrittenLines } from '../../storage/archive-rows.ts';
import {
  type ArchivedDay,
  archivedDaysBetween,
  beginArchivingDay,
  dayStart,
  EPOCH_DAY,
  isCurrent,
  nextDay,
  nextDayWithRows,
  notePiece,
  recordArchivedDay,
} from '../../storage/archived-days.ts';
import { countedR2 } from '../../storage/counted-r2.ts';
import { ARCHIVE_KINDS, type ArchiveKind } from '../../storage/schema/index.ts';
import { PURGED_BEFORE_SQL } from '../../storage/sql/purged-before.ts';
import { rawCutoff } from './raw-cutoff.ts';
import type { SliceResult, Stage, StageContext } from './stage.ts';

/**
 * D1 queries and R2 calls one slice starts no more writing after: well inside the slice reserve
 * (query-budget.ts), which leaves room for the parts of a large object (one call per 8 MiB
 * gzipped) beyond the one call a piece is counted ahead for.
 */
export const ARCHIVE_SLICE_QUERIES = 40;

/**
 * D1 queries of page reads one piece of a day takes at most (24 pages of 5,000 events, or 12 of
 * 500 traces), so that a piece is written whole in one slice within its queries: a day of more
 * rows is written a piece a slice (a full-scale day of steady traffic takes two pieces of events
 * and six of traces).
 */
export const PIECE_READ_QUERIES = 24;

/** How the archive cuts a day: ARCHIVED_TABLES' pages and PIECE_READ_QUERIES, smaller in a test writing small days in many pieces. */
export interface ArchiveBounds {
  /** Rows a page read holds, per table. */
  pageRows: Record<ArchiveKind, number>;
  /** D1 queries of page reads a piece takes at most. */
  pieceReadQueries: number;
}

/** A day's table being written a piece a slice: where the next piece starts, and what the pieces before it held. */
interface Writing {
  day: string;
  kind: ArchiveKind;
  /** The piece to write next (1 for the day's first). */
  piece: number;
  /** The arrival it starts at (epoch ms), and those the pieces after it start at, found with the day's first. */
  from: number;
  later: number[];
  rows: number;
  last: number;
  /** The rows the day's table held when its writing began, for reckoning a piece's reads. */
  total: number;
}

/** The cursor: a day to go on at, or a day's table part-written (JSON). */
const parseCursor = (cursor: string | null): { day: string | null; writing?: Writing } => {
  if (cursor?.startsWith('{')) {
    const writing = JSON.parse(cursor) as Writing;
    return { day: writing.day, writing };
  }
  return { day: cursor };
};

/**
 * The archive (seed 001, step 5): each complete UTC day of arrival of the project's raw events
 * and traces, written to R2 as gzipped JSON lines per table, one object a day or, for a day of
 * more rows than a slice writes, a piece a slice, before retention purges it (retention holds
 * back any day not archived as current). A day is written once; it is written again when an
 * erasure deleted rows of it (marked stale) or, once it is due for purge, when its rows no longer
 * count as many up to the same last arrival (rows that came late). Rows stored with the arrival
 * of a day retention already purged are added to its last piece. Without the ARCHIVE binding
 * nothing is archived and retention purges as before.
 */
export const archiveWithin = (bounds: ArchiveBounds): Stage => ({
  name: 'archive',
  async slice(ctx, cursor): Promise<SliceResult> {
    if (!ctx.archive) return { cursor: null, counts: { skipped: 1 }, note: 'no ARCHIVE binding (R2): raw rows are purged unarchived' };
    const { db, projectId } = ctx;
    const r2 = countedR2(ctx.archive);
    const now = ctx.purgeNow ?? ctx.now;
    const today = utcDay(now);
    const dueDay = utcDay(rawCutoff(now, ctx.settings.retentionDays));
    const counts = { written: 0, events: 0, traces: 0, unchanged: 0 };
    const purged = await db.prepare(`select ${PURGED_BEFORE_SQL} as before`).bind(projectId).first<{ before: number }>();
    const purgedDay = utcDay(purged?.before ?? 0);
    const at = parseCursor(cursor);
    // The cursor is the day to go on at. Before the days retention purged, only rows that came
    // late into one of them are stored (if any): they start there.
    const firstStored = (await nextDayWithRows(db, projectId, EPOCH_DAY)) ?? purgedDay;
    const from = [[firstStored, purgedDay].sort()[0]!, at.day ?? EPOCH_DAY].sort().at(-1)!;
    const archived = await archivedDaysBetween(db, projectId, from, today);
    // Days an erasure left stale may have no rows left: their objects go too.
    const recordedDays = [...new Set([...archived.values()].map((r) => r.day))].sort();
    let queries = 3;
    /** Whether a piece costing `reads` more page reads may start in this slice: always the first. */
    const fits = (reads: number, r2Ahead: number) => counts.written === 0 || queries + reads + r2.calls() + r2Ahead <= ARCHIVE_SLICE_QUERIES;
    let writing = at.writing;
    let day: string | null = from;
    while (day !== null && day < today) {
      const current: string = day;
      const recorded = ARCHIVE_KINDS.filter((kind) => archived.has(`${kind}/${current}`));
      if (!writing && recorded.length === 0) {
        // Days with nothing stored and nothing archived are passed over in one query.
        const rows = await nextDayWithRows(db, projectId, current);
        queries++;
        const next = [rows, recordedDays.find((d) => d > current)].filter((d) => d != null).sort()[0] ?? null;
        if (next !== current) {
          day = next;
          continue;
        }
      }
      for (const kind of ARCHIVE_KINDS) {
        const record = archived.get(`${kind}/${current}`);
        let w: Writing;
        if (writing) {
          // The kinds before the one part-written are done.
          if (writing.kind !== kind) continue;
          w = writing;
          writing = undefined;
        } else {
          if (isCurrent(record) && current >= dueDay) continue;
          const found = await fingerprint(ctx, kind, current);
          queries++;
          // A day retention purged is written again only with rows that came late, and keeps what it held.
          const purgedBefore = current < purgedDay;
          if ((purgedBefore && found.rows === 0) || (isCurrent(record) && record.rows === found.rows && record.lastReceivedAt === found.last)) {
            counts.unchanged++;
            continue;
          }
          if (purgedBefore && record !== undefined) {
            // Its pages, marking and recording it; in R2, reading the old piece and writing it (one call ahead).
            const reads = Math.ceil(found.rows / bounds.pageRows[kind]) * ARCHIVED_TABLES[kind].pageQueries + 3;
            if (!fits(reads, 2)) return { cursor: current, counts };
            counts[kind] += await addLateRows(ctx, r2.bucket, bounds, kind, current, record);
            queries += reads;
            counts.written++;
            continue;
          }
          w = { day: current, kind, piece: 1, from: dayStart(current), later: [], rows: 0, last: 0, total: found.rows };
        }
        // Pieces while the slice has room for them, the first always: the next slice goes on with the piece after.
        for (;;) {
          // Its page reads, page starts, noting it, beginning and recording the day; in R2, one call ahead and deleting pieces left over.
          const pages = Math.ceil(Math.max(1, w.total - w.rows) / bounds.pageRows[kind]) * ARCHIVED_TABLES[kind].pageQueries;
          if (!fits(Math.min(bounds.pieceReadQueries, pages) + 4, 2)) return { cursor: JSON.stringify(w), counts };
          if (w.piece === 1) {
            await beginArchivingDay(db, projectId, kind, current, Date.now()).run();
            queries++;
          }
          const piece = await writePiece(ctx, r2.bucket, bounds, w);
          queries += piece.queries;
          counts.written++;
          counts[kind] += piece.rows;
          const done = { rows: w.rows + piece.rows, last: Math.max(w.last, piece.last) };
          if (piece.later.length === 0) {
            // Pieces of an earlier writing beyond this one's last (the day had more rows then) go.
            const pieces = Math.max(w.piece, record?.pieces ?? 1);
            const leftOver = Array.from({ length: pieces - w.piece }, (_, i) => archiveKey(projectId, kind, current, w.piece + 1 + i));
            if (leftOver.length) await r2.bucket.delete(leftOver);
            await recordArchivedDay(db, projectId, kind, current, { rows: done.rows, lastReceivedAt: done.last, pieces: w.piece }, Date.now()).run();
            queries++;
            break;
          }
          const [from, ...later] = piece.later;
          w = { ...w, piece: w.piece + 1, from: from!, later, ...done };
        }
      }
      day = nextDay(current);
    }
    return { cursor: null, counts };
  },
});

export const archive = archiveWithin({
  pageRows: { events: ARCHIVED_TABLES.events.pageRows, traces: ARCHIVED_TABLES.traces.pageRows },
  pieceReadQueries: PIECE_READ_QUERIES,
});

async function fingerprint(ctx: StageContext, kind: ArchiveKind, day: string): Promise<{ rows: number; last: number }> {
  const start = dayStart(day);
  const r = await ctx.db
    .prepare(ARCHIVED_TABLES[kind].fingerprintSql)
    .bind(ctx.projectId, start, start + DAY_MS)
    .first<{ rows: number; last: number | null }>();
  return { rows: r?.rows ?? 0, last: r?.last ?? 0 };
}

/**
 * Writes one piece of a table's day as it is stored now, from `w.from` to where the next piece
 * starts: pages gzipped as they are read, replacing any earlier object of that piece (a first
 * piece with no rows has none). The day's first piece finds where every piece starts, in the one
 * query that finds its own pages (the later pieces' then count only their own rows). Returns its
 * rows and latest arrival, where the pieces after it start (none after the day's last), and the D1
 * queries it ran.
 */
async function writePiece(
  ctx: StageContext,
  bucket: R2Bucket,
  bounds: ArchiveBounds,
  w: Writing,
): Promise<{ rows: number; last: number; later: number[]; queries: number }> {
  const table = ARCHIVED_TABLES[w.kind];
  const piecePages = Math.max(1, Math.floor(bounds.pieceReadQueries / table.pageQueries));
  const end = w.later[0] ?? dayStart(w.day) + DAY_MS;
  // Noted first, so that a piece stored is never beyond what the record allows for.
  await notePiece(ctx.db, ctx.projectId, w.kind, w.day, w.piece).run();
  let starts = await pageStarts(ctx, bounds, w.kind, w.from, end);
  let later = w.later;
  if (w.piece === 1) {
    later = starts.filter((_, i) => i > 0 && i % piecePages === 0);
    starts = starts.slice(0, piecePages);
  }
  const read = { last: 0 };
  const rows = await writeLines(bucket, archiveKey(ctx.projectId, w.kind, w.day, w.piece), readPages(ctx, w.kind, starts, later[0] ?? end, read));
  return { rows, last: read.last, later, queries: 2 + starts.length * table.pageQueries };
}

/** Where a table's pages of the rows that arrived in [from, to) start (one D1 query). */
async function pageStarts(ctx: StageContext, bounds: ArchiveBounds, kind: ArchiveKind, from: number, to: number): Promise<number[]> {
  const { results } = await ctx.db.prepare(ARCHIVED_TABLES[kind].pageStartsSql).bind(ctx.projectId, from, to, bounds.pageRows[kind]).all<{ at: number }>();
  // Distinct: rows that arrived at once are one page's, however many.
  return [...new Set(results.map((r) => r.at))];
}

/**
 * The lines of a table's pages, each read from its start to the next page's (the last to `to`),
 * their chunk texts written once across them; `read.last` follows the latest arrival read.
 */
async function* readPages(ctx: StageContext, kind: ArchiveKind, starts: number[], to: number, read: { last: number }): AsyncGenerator<string[]> {
  const texts = new ObjectTexts();
  for (const [i, from] of starts.entries()) {
    const page = await ARCHIVED_TABLES[kind].readPage(ctx.db, ctx.projectId, from, starts[i + 1] ?? to, texts);
    read.last = Math.max(read.last, page.last);
    yield page.lines;
  }
}

/**
 * Adds the rows stored with the arrival of a day retention purged (rows that came late) to the
 * last piece of its objects, which keeps the lines it held; a row already in it is written again
 * in its place. The rows are few: they are held while the old lines stream past. Returns how many
 * rows the day's objects gained.
 */
async function addLateRows(ctx: StageContext, bucket: R2Bucket, bounds: ArchiveBounds, kind: ArchiveKind, day: string, record: ArchivedDay): Promise<number> {
  await beginArchivingDay(ctx.db, ctx.projectId, kind, day, Date.now()).run();
  const start = dayStart(day);
  const starts = await pageStarts(ctx, bounds, kind, start, start + DAY_MS);
  const fresh: string[] = [];
  const read = { last: 0 };
  for await (const lines of readPages(ctx, kind, starts, start + DAY_MS, read)) fresh.push(...lines);
  const key = archiveKey(ctx.projectId, kind, day, record.pieces);
  const old = { lines: 0 };
  async function* counted(lines: AsyncIterable<string>) {
    for await (const line of lines) {
      old.lines++;
      yield line;
    }
  }
  const written = await writeLines(
    bucket,
    key,
    rewrittenLines(kind, counted(objectLines(bucket, key)), () => true, fresh, read),
  );
  const rows = Math.max(0, record.rows) - old.lines + written;
  await recordArchivedDay(
    ctx.db,
    ctx.projectId,
    kind,
    day,
    { rows, lastReceivedAt: Math.max(record.lastReceivedAt, read.last), pieces: record.pieces },
    Date.now(),
  ).run();
  return written - old.lines;
}
