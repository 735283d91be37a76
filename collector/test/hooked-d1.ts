import { type Around, wrappedD1 } from '../storage/sql/wrapped-d1.ts';

export type { Around, Running } from '../storage/sql/wrapped-d1.ts';

/**
 * The D1 binding with `around` about every statement run alone and every batch, told their SQL and
 * bound values: a test lands a change between two reads, or just before a write, where D1 gives no
 * hook, or takes the database down for every way to run SQL. The wrapping is the one the nightly
 * job counts its queries through.
 */
export const hookedD1 = (d1: D1Database, around: Around): D1Database => wrappedD1(d1, around);

/** The D1 binding counting its round trips (a statement run alone or a batch): `trips()` says how many so far. */
export function countedD1(d1: D1Database): { db: D1Database; trips: () => number } {
  let trips = 0;
  const db = hookedD1(d1, (_, run) => {
    trips++;
    return run();
  });
  return { db, trips: () => trips };
}

/** `then` once, the first time it is called; every later call goes on at once. */
export function once(then: () => Promise<unknown>): () => Promise<void> {
  let fired = false;
  return async () => {
    if (fired) return;
    fired = true;
    await then();
  };
}
