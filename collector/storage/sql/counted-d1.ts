/**
 * A D1 binding that counts the queries run through it: Cloudflare allows a Worker invocation a
 * bounded number of D1 queries (1,000 on Workers Paid), so the nightly job stops starting slices
 * before it would run out. A batch counts as its statements, the safe reading. Queries of a
 * session (`withSession`) are not counted: the job runs none.
 */
export interface CountedD1 {
  db: D1Database;
  /** Queries run so far. */
  queries: () => number;
}

const RUNS = new Set<PropertyKey>(['run', 'all', 'first', 'raw']);

/**
 * What a wrapper answers with the binding's own statement, which a batch takes. Not a WeakMap from
 * wrapper to statement: with one, a night's statements and their bound JSON outlived their slices
 * in workerd (the nightly benchmark's Worker heap reserved up to 219 MB at a tenth, 137 MB without).
 */
const STATEMENT = Symbol('statement');

/** A statement as a batch is given it: one of ours, or one prepared on the binding itself. */
type Given = D1PreparedStatement & { [STATEMENT]?: D1PreparedStatement };
const bindingStatement = (s: Given): D1PreparedStatement => s[STATEMENT] ?? s;

export function countedD1(d1: D1Database): CountedD1 {
  let queries = 0;
  const counted = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        if (prop === STATEMENT) return target;
        if (prop === 'bind') return (...values: unknown[]) => counted(target.bind(...values));
        const value = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (!RUNS.has(prop)) return value.bind(target);
        return (...args: unknown[]) => {
          queries++;
          return value.apply(target, args);
        };
      },
    });
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => counted(target.prepare(sql));
      if (prop === 'batch')
        return (statements: Given[]) => {
          queries += statements.length;
          return target.batch(statements.map(bindingStatement));
        };
      if (prop === 'exec')
        return (sql: string) => {
          queries++;
          return target.exec(sql);
        };
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, queries: () => queries };
}
