/**
 * A local D1 read or changed straight in its SQLite file, for tests that check what a command
 * stored: `wrangler d1 execute` starts wrangler anew each time, seconds a call on a busy machine.
 * Only while no `wrangler dev` has the file open.
 */
import Database from 'better-sqlite3';
import { d1File } from './wrangler.ts';

/** Runs one statement; answers its rows (none for a statement that returns none). */
export function sqlite<Row = Record<string, unknown>>(persistTo: string, sql: string): Row[] {
  const db = new Database(d1File(persistTo));
  try {
    const statement = db.prepare(sql);
    if (statement.reader) return statement.all() as Row[];
    statement.run();
    return [];
  } finally {
    db.close();
  }
}
