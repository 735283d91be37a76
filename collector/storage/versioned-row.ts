/**
 * A project's one row of settings (loop settings, widget config) with its version, so a save made
 * from an old read is refused rather than silently overwriting what another admin saved since.
 * The version is the row's `updated_at`, moved forward by at least 1 on every save (two saves in
 * the same millisecond still differ); 0 is the version of a project with no row (defaults).
 */
export type VersionedTable = 'loop_settings' | 'widget_configs';

/** The version of a project that never saved this row. */
export const UNSAVED_VERSION = 0;

const COLUMN: Record<VersionedTable, string> = { loop_settings: 'settings', widget_configs: 'config' };

/** The stored JSON text and its version, or undefined when the project has none. */
export async function readVersioned(d1: D1Database, table: VersionedTable, projectId: string): Promise<{ json: string; version: number } | undefined> {
  const row = await d1
    .prepare(`select ${COLUMN[table]} as json, updated_at as version from ${table} where project_id = ?`)
    .bind(projectId)
    .first<{ json: string; version: number }>();
  return row ?? undefined;
}

/**
 * Writes the row in one statement; with `ifVersion`, only while the stored one is still that
 * version. Answers the new version, or undefined when the row had changed since (nothing written).
 */
export async function saveVersioned(
  d1: D1Database,
  table: VersionedTable,
  projectId: string,
  json: string,
  now: number,
  ifVersion?: number,
): Promise<number | undefined> {
  const column = COLUMN[table];
  const unconditional = ifVersion === undefined;
  // Inserted only when no row was expected (or any goes); updated only from the version expected.
  const row = await d1
    .prepare(
      `insert into ${table} (project_id, ${column}, updated_at) select ?1, ?2, ?3
         where ?4 or ?5 = ${UNSAVED_VERSION} or exists (select 1 from ${table} where project_id = ?1)
       on conflict (project_id) do update set ${column} = excluded.${column}, updated_at = max(excluded.updated_at, ${table}.updated_at + 1)
         where ?4 or ${table}.updated_at = ?5
       returning updated_at as version`,
    )
    .bind(projectId, json, now, unconditional ? 1 : 0, ifVersion ?? UNSAVED_VERSION)
    .first<{ version: number }>();
  return row?.version;
}
