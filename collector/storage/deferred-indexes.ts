/**
 * Secondary indexes a stage drops while it writes most of their table, and builds again when it
 * ends: one build in key order instead of as many inserts at random places in b-trees larger than
 * the page cache (a month imported at once writes a million trace aggregates). Each definition is
 * kept in `deferred_indexes` by the statement before the one that drops it, in one transaction, so
 * whatever stops the job, the next run builds it again. Readers meanwhile get the same answers,
 * only slower.
 */

/** Keeps the named indexes' definitions, then drops them: statements for one batch. */
export function deferIndexes(db: D1Database, names: readonly string[]): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `insert or ignore into deferred_indexes (name, definition, deferred_at)
         select name, sql, ?1 from sqlite_master where type = 'index' and name in (select value from json_each(?2))`,
      )
      .bind(Date.now(), JSON.stringify(names)),
    ...names.map((name) => db.prepare(`drop index if exists "${name.replaceAll('"', '""')}"`)),
  ];
}

/** Builds every deferred index again (all of them, whichever stage or run deferred it); answers how many. */
export async function restoreIndexes(db: D1Database): Promise<number> {
  const { results } = await db.prepare('select name, definition from deferred_indexes').all<{ name: string; definition: string }>();
  if (results.length === 0) return 0;
  await db.batch(
    results.flatMap((r) => [
      db.prepare(r.definition.replace(/^create\s+index\s+(if\s+not\s+exists\s+)?/i, 'CREATE INDEX IF NOT EXISTS ')),
      db.prepare('delete from deferred_indexes where name = ?').bind(r.name),
    ]),
  );
  return results.length;
}
