import { wrappedD1 } from './wrapped-d1.ts';

/**
 * A D1 binding that counts the queries run through it: Cloudflare allows a Worker invocation a
 * bounded number of D1 queries (1,000 on Workers Paid), so the nightly job stops starting slices
 * before it would run out. A batch counts as its statements, the safe reading; an exec as the lines
 * of its SQL, each of which D1 runs as a statement (its answer's `count`), also the safe reading when
 * one fails partway; and a session's (`withSession`) queries as the binding's.
 */
export interface CountedD1 {
  db: D1Database;
  /** Queries run so far. */
  queries: () => number;
}

export function countedD1(d1: D1Database): CountedD1 {
  let queries = 0;
  const db = wrappedD1(d1, (running, run) => {
    queries += running.exec ? execStatements(running.sql[0]!) : running.sql.length;
    return run();
  });
  return { db, queries: () => queries };
}

/** The statements D1 runs for an exec's SQL: one a line, as workerd's binding splits it. */
const execStatements = (sql: string): number => sql.trim().split('\n').length;
