import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';

/** Rows per statement are capped by their JSON size: D1 caps a bound value at 2 MB. */
const MAX_JSON_BYTES = 512 * 1024;

export interface JsonInsertOptions {
  /** Each statement returns this column of the rows it inserted. */
  returning?: SQLiteColumn;
  /** Inserts only the rows this holds for; it reads a row's fields as `json_extract(value, '$.field')`. */
  where?: SQL;
}

/**
 * `INSERT … SELECT … FROM json_each(?)`: a batch of rows in one statement bound to one
 * parameter. D1 allows at most 100 bound parameters per statement, so a multi-row VALUES would
 * need a statement per 8 event rows; this keeps a 100-event batch to one statement, which is
 * where the write throughput comes from. Conflicting rows are skipped, so inserts are idempotent.
 */
export function insertJsonRows<T extends SQLiteTable>(
  table: T,
  rows: readonly T['$inferInsert'][],
  { returning, where = sql`true` }: JsonInsertOptions = {},
): SQL[] {
  const columns = Object.entries(getTableColumns(table));
  const names = sql.join(
    columns.map(([, c]) => sql.identifier(c.name)),
    sql`, `,
  );
  const values = sql.join(
    columns.map(([key]) => sql.raw(`json_extract(value, '$.${key}')`)),
    sql`, `,
  );
  const ret = returning ? sql` returning ${sql.identifier(returning.name)}` : sql``;
  // A WHERE clause, even `where true`, lets SQLite parse ON CONFLICT after a SELECT (its documented upsert caveat).
  return jsonArrays(rows).map(
    (json) =>
      sql`insert into ${sql.identifier(getTableName(table))} (${names}) select ${values} from json_each(${json}) where ${where} on conflict do nothing${ret}`,
  );
}

/** Serialises rows into as few JSON arrays as fit MAX_JSON_BYTES each (D1 caps one bound value at 2 MB). */
export function jsonArrays(rows: readonly unknown[]): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (parts.length > 0 && size + json.length > MAX_JSON_BYTES) {
      out.push(`[${parts.join(',')}]`);
      parts = [];
      size = 0;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) out.push(`[${parts.join(',')}]`);
  return out;
}
