import { hookedD1 } from './hooked-d1.ts';

/** Thrown where an invocation of the nightly job ends early. */
export const INVOCATION_ENDED = 'the invocation ended';

/**
 * The D1 binding of an invocation that ends once `arms` has been true of a statement it ran, as
 * the nightly job goes to save where its run is: a slice whose writes landed but not its cursor.
 * It ends once; a later invocation on the same binding goes on.
 */
export function endingBeforeSave(db: D1Database, arms: (sql: string) => boolean): D1Database {
  let armed = false;
  let ended = false;
  return hookedD1(db, async ({ sql }, run) => {
    for (const s of sql.map((s) => s.trimStart())) {
      armed ||= arms(s);
      if (armed && !ended && s.startsWith('update loop_runs set status')) {
        ended = true;
        throw new Error(INVOCATION_ENDED);
      }
    }
    return run();
  });
}
