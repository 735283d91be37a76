/**
 * A local D1 read or changed in place, through the SQLite wrangler dev itself runs (miniflare's D1
 * in workerd): wrangler keeps a D1's writes in the file's WAL, which that engine reads back.
 * `wrangler d1 execute` starts all of wrangler each time, seconds a call on a busy machine. For
 * throwaway collectors and the tests that check what a command stored; only while no `wrangler dev`
 * has the file open.
 */
import { Miniflare } from 'miniflare';
import { d1DatabaseId, d1Persist } from './wrangler.ts';

type D1 = Awaited<ReturnType<Miniflare['getD1Database']>>;

async function withLocalD1<T>(persistTo: string, use: (db: D1) => Promise<T>): Promise<T> {
  const mf = new Miniflare({ modules: true, script: 'export default {}', d1Databases: { DB: d1DatabaseId() }, d1Persist: d1Persist(persistTo) });
  try {
    return await use(await mf.getD1Database('DB'));
  } finally {
    await mf.dispose();
  }
}

/** Runs one statement; answers its rows (none for a statement that returns none). */
export function queryLocalD1<Row = Record<string, unknown>>(persistTo: string, sql: string): Promise<Row[]> {
  return withLocalD1(persistTo, async (db) => (await db.prepare(sql).all<Row>()).results);
}

/** Runs statements in one transaction. */
export function batchLocalD1(persistTo: string, statements: readonly string[]): Promise<void> {
  return withLocalD1(persistTo, async (db) => {
    await db.batch(statements.map((s) => db.prepare(s)));
  });
}
