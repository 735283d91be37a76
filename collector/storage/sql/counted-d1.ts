import { wrappedD1 } from './wrapped-d1.ts';

/**
 * A D1 binding that counts the queries run through it: Cloudflare allows a Worker invocation a
 * bounded number of D1 queries (1,000 on Workers Paid), so the nightly job stops starting slices
 * before it would run out. A batch counts as its statements, the safe reading; an exec as the
 * statements D1 says it ran (one until it answers, or if it fails), and a session's (`withSession`)
 * queries as the binding's.
 */
export interface CountedD1 {
  db: D1Database;
  /** Queries run so far. */
  queries: () => number;
}

export function countedD1(d1: D1Database): CountedD1 {
  let queries = 0;
  const db = wrappedD1(d1, async (running, run) => {
    queries += running.sql.length;
    const result = await run();
    // An exec's SQL may hold any number of statements: only its answer says how many ran.
    if (running.exec) queries += (result as D1ExecResult).count - 1;
    return result;
  });
  return { db, queries: () => queries };
}
