/**
 * A local D1 read or changed straight in its SQLite file: `wrangler d1 execute` starts wrangler
 * anew each time, seconds a call on a busy machine. For throwaway collectors and the tests that
 * check what a command stored; only while no `wrangler dev` has the file open.
 */
import Database from 'better-sqlite3';
import { d1File } from './wrangler.ts';

function withD1File<T>(persistTo: string, use: (db: Database.Database) => T): T {
  const db = new Database(d1File(persistTo));
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** Runs one statement; answers its rows (none for a statement that returns none). */
export function sqlite<Row = Record<string, unknown>>(persistTo: string, sql: string): Row[] {
  return withD1File(persistTo, (db) => {
    const statement = db.prepare(sql);
    if (statement.reader) return statement.all() as Row[];
    statement.run();
    return [];
  });
}

/** Runs statements that answer nothing, several in one string. */
export function sqliteExec(persistTo: string, sql: string): void {
  withD1File(persistTo, (db) => db.exec(sql));
}
