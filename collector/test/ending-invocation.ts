/** Thrown where an invocation of the nightly job ends early. */
export const INVOCATION_ENDED = 'the invocation ended';

/**
 * The D1 binding of an invocation that ends once `arms` has been true of a statement it prepared,
 * as the nightly job goes to save where its run is: a slice whose writes landed but not its cursor.
 * It ends once; a later invocation on the same binding goes on.
 */
export function endingBeforeSave(db: D1Database, arms: (sql: string) => boolean): D1Database {
  let armed = false;
  let ended = false;
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'prepare') return Reflect.get(target, prop).bind(target);
      return (sql: string) => {
        armed ||= arms(sql.trimStart());
        if (armed && !ended && sql.trimStart().startsWith('update loop_runs set status')) {
          ended = true;
          throw new Error(INVOCATION_ENDED);
        }
        return target.prepare(sql);
      };
    },
  });
}
