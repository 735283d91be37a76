import { objectLines, writeLines } from '../../storage/archive-objects.ts';
import { archiveKey, parseLine, rewrittenLines } from '../../storage/archive-rows.ts';
import { linesErased, PURGED_DAY_SQL } from '../../storage/archived-days.ts';
import { countedR2 } from '../../storage/counted-r2.ts';
import type { ArchiveKind } from '../../storage/schema/index.ts';
import type { SliceResult, Stage } from './stage.ts';

/**
 * D1 queries and R2 calls after which a slice starts on no more objects: well inside the slice
 * reserve (query-budget.ts), which leaves room for the last object's. An object takes one read,
 * or where it changes two reads, its writing (one put, or a part per 8 MiB) and its record.
 */
export const ARCHIVE_ERASE_CALLS = 40;

/**
 * Bytes read (gzipped, as stored) after which a slice starts on no more objects: a slice's time
 * follows what it unzips and scans, and at full scale one day of traces is about 42 MB, read twice
 * where it changes, so a slice bounded by calls alone could read some 38 such objects.
 */
export const ARCHIVE_ERASE_BYTES = 64 * 1024 * 1024;

/** When a slice starts on no more objects: the calls made (D1 and R2) and the bytes read. */
export interface EraseSliceBounds {
  calls: number;
  bytes: number;
}

/**
 * Erasure in the archive: the objects of days retention purged are the only copy of those days,
 * so the lines of users erased (their answers, and events about their answers) are taken out of
 * them, object by object (a day written in pieces, piece by piece); days still stored were marked stale by the erasure and are written
 * again from what it left (archive.ts). An event whose answer was not stored when it was archived
 * names no user and stays. Erasures asked for once this run had started wait for the next night,
 * as the objects passed before them are not looked at again.
 */
export const archiveErasuresWithin = (bounds: EraseSliceBounds): Stage => ({
  name: 'archive-erasures',
  async slice(ctx, cursor): Promise<SliceResult> {
    const bucket = ctx.archive;
    const { db, projectId } = ctx;
    if (!bucket) {
      // Nothing to erase them from here: requests, which name users, are not kept.
      await db.prepare('delete from archive_erasures where project_id = ?').bind(projectId).run();
      return { cursor: null, counts: { skipped: 1 }, note: 'no ARCHIVE binding (R2)' };
    }
    const before = ctx.run.startedAt ?? ctx.now;
    const { results: users } = await db
      .prepare('select user_id_hash from archive_erasures where project_id = ? and requested_at < ?')
      .bind(projectId, before)
      .all<{ user_id_hash: string }>();
    if (users.length === 0) return { cursor: null, counts: {} };
    const erased = new Set(users.map((u) => u.user_id_hash));
    // As a line writes them: JSON escapes a backslash or quote in an id ("CORP\\jdoe").
    const hashes = [...erased].map((h) => JSON.stringify(h));
    const isErased = (l: { userIdHash: string | null }) => erased.has(l.userIdHash ?? '');
    // The cursor is the last piece done, `day/kind/piece` (`day/kind`: all of that day's table).
    const [cursorDay = '', cursorKind = '', cursorPiece] = (cursor ?? '').split('/');
    const after = cursor === null ? '' : `${cursorDay}/${cursorKind}`;
    const donePieces = cursorPiece === undefined ? Number.POSITIVE_INFINITY : Number(cursorPiece);
    const { results: days } = await db
      .prepare(
        `select kind, day, pieces from archived_days where project_id = ?1 and rows > 0
           and ${PURGED_DAY_SQL} and (day || '/' || kind > ?2 or (?4 and day || '/' || kind = ?2)) order by day, kind limit ?3`,
      )
      .bind(projectId, after, bounds.calls, cursorPiece === undefined ? 0 : 1)
      .all<{ kind: ArchiveKind; day: string; pieces: number }>();
    const objects = days.flatMap(({ kind, day, pieces }) =>
      Array.from({ length: pieces }, (_, i) => ({ kind, day, piece: i + 1 })).filter((o) => `${day}/${kind}` !== after || o.piece > donePieces),
    );
    const counts = { objects: 0, lines: 0, users: 0 };
    const r2 = countedR2(bucket);
    let calls = 2;
    const cursorAt = (o: { day: string; kind: ArchiveKind; piece: number }) => `${o.day}/${o.kind}/${o.piece}`;
    for (const [i, { kind, day, piece }] of objects.entries()) {
      if (i > 0 && (calls + r2.calls() >= bounds.calls || r2.bytesRead() >= bounds.bytes)) return { cursor: cursorAt(objects[i - 1]!), counts };
      const key = archiveKey(projectId, kind, day, piece);
      // Read once to find the users' lines (parsing only a line that holds one's hash), and again
      // only where there are some, as it is written.
      let found = 0;
      for await (const line of objectLines(r2.bucket, key)) if (hashes.some((h) => line.includes(h)) && isErased(parseLine(kind, line))) found++;
      if (found === 0) continue;
      await writeLines(
        r2.bucket,
        key,
        rewrittenLines(kind, objectLines(r2.bucket, key), (l) => !isErased(l), [], { last: 0 }),
      );
      await linesErased(db, projectId, kind, day, found, Date.now()).run();
      calls++;
      counts.objects++;
      counts.lines += found;
    }
    if (days.length === bounds.calls) {
      const last = objects.at(-1);
      return { cursor: last ? cursorAt(last) : `${days.at(-1)!.day}/${days.at(-1)!.kind}`, counts };
    }
    const done = await db.prepare('delete from archive_erasures where project_id = ? and requested_at < ?').bind(projectId, before).run();
    counts.users = done.meta.changes;
    return { cursor: null, counts };
  },
});

export const archiveErasures = archiveErasuresWithin({ calls: ARCHIVE_ERASE_CALLS, bytes: ARCHIVE_ERASE_BYTES });
