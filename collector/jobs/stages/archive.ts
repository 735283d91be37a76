import { ObjectTexts } from '../../../shared/archive-texts.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { objectLines, writeLines } from '../../storage/archive-objects.ts';
import { ARCHIVED_TABLES, archiveKey, rewrittenLines } from '../../storage/archive-rows.ts';
import {
  archivedDaysBetween,
  beginArchivingDay,
  dayStart,
  EPOCH_DAY,
  isCurrent,
  nextDay,
  nextDayWithRows,
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
 * gzipped) beyond the one call a day is counted ahead for. A day is written whole in one slice,
 * so a day of more rows than fit in it takes a slice of its own, of as many page reads as it needs.
 */
export const ARCHIVE_SLICE_QUERIES = 40;

/**
 * The archive (seed 001, step 5): each complete UTC day of arrival of the project's raw events
 * and traces, written to R2 as one gzipped JSON-lines object per table, before retention purges
 * it (retention holds back any day not archived as current). A day is written once; it is
 * written again when an erasure deleted rows of it (marked stale) or, once it is due for purge,
 * when its rows no longer count as many up to the same last arrival (rows that came late). Rows
 * stored with the arrival of a day retention already purged are added to its object. Without the
 * ARCHIVE binding nothing is archived and retention purges as before.
 */
export const archive: Stage = {
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
    // The cursor is the day to go on at. Before the days retention purged, only rows that came
    // late into one of them are stored (if any): they start there.
    const firstStored = (await nextDayWithRows(db, projectId, EPOCH_DAY)) ?? purgedDay;
    const from = [[firstStored, purgedDay].sort()[0]!, cursor ?? EPOCH_DAY].sort().at(-1)!;
    const archived = await archivedDaysBetween(db, projectId, from, today);
    // Days an erasure left stale may have no rows left: their objects go too.
    const recordedDays = [...new Set([...archived.values()].map((r) => r.day))].sort();
    let queries = 3;
    let day: string | null = from;
    while (day !== null && day < today) {
      const current: string = day;
      const recorded = ARCHIVE_KINDS.filter((kind) => archived.has(`${kind}/${current}`));
      if (recorded.length === 0) {
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
        if (isCurrent(record) && current >= dueDay) continue;
        const found = await fingerprint(ctx, kind, current);
        queries++;
        // A day retention purged is written again only with rows that came late, and keeps what it held.
        const purgedBefore = current < purgedDay;
        if ((purgedBefore && found.rows === 0) || (isCurrent(record) && record.rows === found.rows && record.lastReceivedAt === found.last)) {
          counts.unchanged++;
          continue;
        }
        // Its pages, where they start, and marking and recording it; in R2, its writing (counted
        // one call ahead) and, when rows are added to it, reading the old object.
        const merge = purgedBefore && record !== undefined;
        const { pageRows, pageQueries } = ARCHIVED_TABLES[kind];
        const reads = Math.ceil(found.rows / pageRows) * pageQueries + 3;
        const r2Ahead = merge ? 2 : 1;
        // Days before this one are done: the next slice starts again at this one (a kind of it
        // written already is found current then).
        if (counts.written > 0 && queries + reads + r2.calls() + r2Ahead > ARCHIVE_SLICE_QUERIES) return { cursor: current, counts };
        counts[kind] += await writeDay(ctx, r2.bucket, kind, current, merge);
        queries += reads;
        counts.written++;
      }
      day = nextDay(current);
    }
    return { cursor: null, counts };
  },
};

async function fingerprint(ctx: StageContext, kind: ArchiveKind, day: string): Promise<{ rows: number; last: number }> {
  const start = dayStart(day);
  const r = await ctx.db
    .prepare(ARCHIVED_TABLES[kind].fingerprintSql)
    .bind(ctx.projectId, start, start + DAY_MS)
    .first<{ rows: number; last: number | null }>();
  return { rows: r?.rows ?? 0, last: r?.last ?? 0 };
}

/**
 * Writes one table's day as it is stored now, gzipped as it is read, replacing any earlier
 * object (a day left with no rows has none), and records what it holds. A day retention purged
 * before (`merge`: rows of it came late) keeps the lines of its object that are no longer
 * stored, read as the new object is written. Returns its rows.
 */
async function writeDay(ctx: StageContext, bucket: R2Bucket, kind: ArchiveKind, day: string, merge: boolean): Promise<number> {
  const key = archiveKey(ctx.projectId, kind, day);
  await beginArchivingDay(ctx.db, ctx.projectId, kind, day, Date.now()).run();
  const read = { last: 0 };
  let rows: number;
  if (!merge) rows = await writeLines(bucket, key, storedPages(ctx, kind, day, read, new ObjectTexts()));
  else {
    // Rows that come late into a purged day are few: they are held while the old lines stream past.
    const fresh: string[] = [];
    for await (const page of storedPages(ctx, kind, day, read, new ObjectTexts())) fresh.push(...page);
    rows = await writeLines(
      bucket,
      key,
      rewrittenLines(kind, objectLines(bucket, key), () => true, fresh, read),
    );
  }
  await recordArchivedDay(ctx.db, ctx.projectId, kind, day, rows, read.last, Date.now()).run();
  return rows;
}

/** The day's stored rows as lines, a page at a time; `read.last` becomes the latest arrival among them. */
async function* storedPages(ctx: StageContext, kind: ArchiveKind, day: string, read: { last: number }, texts: ObjectTexts): AsyncGenerator<string[]> {
  const table = ARCHIVED_TABLES[kind];
  const start = dayStart(day);
  const { results } = await ctx.db
    .prepare(table.pageStartsSql)
    .bind(ctx.projectId, start, start + DAY_MS, table.pageRows)
    .all<{ at: number }>();
  const starts = [...new Set(results.map((r) => r.at))];
  // Each page is read from its start to the next page's.
  for (const [i, from] of starts.entries()) {
    const page = await table.readPage(ctx.db, ctx.projectId, from, starts[i + 1] ?? start + DAY_MS, texts);
    read.last = Math.max(read.last, page.last);
    yield page.lines;
  }
}
