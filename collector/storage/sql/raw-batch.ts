import type { SQL } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from './db.ts';

const dialect = new SQLiteSyncDialect();

/**
 * Runs raw drizzle `sql` statements as one atomic D1 batch and returns each one's rows.
 * drizzle's own `db.batch` cannot bind parameters of raw `sql` items (its SQLiteRaw has no
 * prepared statement), so they are built with drizzle's dialect and batched on D1 directly.
 */
export async function rawBatch<Row = Record<string, unknown>>(db: Db, statements: readonly SQL[]): Promise<Row[][]> {
  const d1 = db.$client;
  const prepared = statements.map((s) => {
    const q = dialect.sqlToQuery(s);
    return d1.prepare(q.sql).bind(...q.params);
  });
  const results = await d1.batch<Row>(prepared);
  return results.map((r) => r.results);
}
