import { oneBatch, readLines, writeLines } from '../../storage/archive-objects.ts';
import { archiveKey, lineFields } from '../../storage/archive-rows.ts';
import { PURGED_DAY_SQL, recordArchivedDay } from '../../storage/archived-days.ts';
import type { ArchiveKind } from '../../storage/schema/index.ts';
import type { SliceResult, Stage } from './stage.ts';

/** Objects one slice reads and writes again at most: each is a day's rows, held whole while filtered. */
export const ARCHIVE_ERASE_OBJECTS = 20;

/**
 * Erasure in the archive: the objects of days retention purged are the only copy of those days,
 * so the lines of users erased (their answers, and events about their answers) are taken out of
 * them, object by object; days still stored were marked stale by the erasure and are written
 * again from what it left (archive.ts). An event whose answer was not stored when it was archived
 * names no user and stays. Erasures asked for once this run had started wait for the next night,
 * as the objects passed before them are not looked at again.
 */
export const archiveErasures: Stage = {
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
    const { results: objects } = await db
      .prepare(
        `select kind, day from archived_days where project_id = ?1 and rows > 0
           and ${PURGED_DAY_SQL} and day || '/' || kind > ?2 order by day, kind limit ?3`,
      )
      .bind(projectId, cursor ?? '', ARCHIVE_ERASE_OBJECTS)
      .all<{ kind: ArchiveKind; day: string }>();
    const counts = { objects: 0, lines: 0, users: 0 };
    for (const { kind, day } of objects) {
      const key = archiveKey(projectId, kind, day);
      const lines = await readLines(bucket, key);
      const kept = lines.filter((l) => !erased.has(lineFields(kind, l).userIdHash ?? ''));
      if (kept.length === lines.length) continue;
      const rows = await writeLines(bucket, key, oneBatch(kept));
      const last = kept.reduce((max, l) => Math.max(max, lineFields(kind, l).receivedAt), 0);
      await recordArchivedDay(db, projectId, kind, day, rows, last, Date.now()).run();
      counts.objects++;
      counts.lines += lines.length - kept.length;
    }
    if (objects.length === ARCHIVE_ERASE_OBJECTS) {
      const last = objects.at(-1)!;
      return { cursor: `${last.day}/${last.kind}`, counts };
    }
    const done = await db.prepare('delete from archive_erasures where project_id = ? and requested_at < ?').bind(projectId, before).run();
    counts.users = done.meta.changes;
    return { cursor: null, counts };
  },
};
