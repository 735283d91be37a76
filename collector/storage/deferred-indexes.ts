/**
 * Secondary indexes a stage drops while it writes most of their table, and builds again when it
 * ends: one build in key order instead of as many inserts at random places in b-trees larger than
 * the page cache (a month imported at once writes a million trace aggregates). Each definition is
 * kept in `deferred_indexes` with the run that dropped it, by the statement before the one that
 * drops it, in one transaction, so whatever stops the job, a later run builds it again. Readers
 * meanwhile get the same answers, only slower. A migration that changes one of these indexes
 * must build any deferred one first (`restoreLeftIndexes`' statement, run by hand).
 */

/** The run that defers an index, and alone builds it again while it goes on. */
export interface IndexOwner {
  projectId: string;
  night: string;
}

/** Keeps the named indexes' definitions, then drops them: statements for one batch. */
export function deferIndexes(db: D1Database, owner: IndexOwner, names: readonly string[]): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `insert or ignore into deferred_indexes (name, definition, project_id, night, deferred_at)
         select name, sql, ?1, ?2, ?3 from sqlite_master where type = 'index' and name in (select value from json_each(?4))`,
      )
      .bind(owner.projectId, owner.night, Date.now(), JSON.stringify(names)),
    ...names.map((name) => db.prepare(`drop index if exists "${name.replaceAll('"', '""')}"`)),
  ];
}

/** Builds again what this run deferred; answers how many. */
export const restoreOwnIndexes = (db: D1Database, owner: IndexOwner): Promise<number> =>
  restore(db, 'where project_id = ?1 and night = ?2', [owner.projectId, owner.night]);

/**
 * Builds again what no run going on tonight deferred: a run of an earlier night (never continued),
 * one that finished, or none; answers how many.
 */
export const restoreLeftIndexes = (db: D1Database, tonight: string): Promise<number> =>
  restore(db, `where d.night < ?1 or not exists (select 1 from loop_runs r where r.project_id = d.project_id and r.night = d.night and r.status = 'running')`, [
    tonight,
  ]);

/** Whether an index is there (a query naming it with `indexed by` fails while it is deferred). */
export async function indexExists(db: D1Database, name: string): Promise<boolean> {
  return (await db.prepare(`select 1 from sqlite_master where type = 'index' and name = ?`).bind(name).first()) !== null;
}

/**
 * Each index in its own batch: one whose definition no longer builds (a later migration changed its
 * table) is reported and left listed, and does not stop the others or the job.
 */
async function restore(db: D1Database, where: string, params: readonly unknown[]): Promise<number> {
  const { results } = await db
    .prepare(`select d.name, d.definition from deferred_indexes d ${where}`)
    .bind(...params)
    .all<{ name: string; definition: string }>();
  let restored = 0;
  for (const r of results) {
    try {
      await db.batch([
        db.prepare(
          r.definition.replace(
            /^create\s+(unique\s+)?index\s+(if\s+not\s+exists\s+)?/i,
            (_, unique = '') => `CREATE ${unique.toUpperCase()}INDEX IF NOT EXISTS `,
          ),
        ),
        db.prepare('delete from deferred_indexes where name = ?').bind(r.name),
      ]);
      restored++;
    } catch (error) {
      console.error(`deferred index ${r.name} could not be built again:`, error);
    }
  }
  return restored;
}
