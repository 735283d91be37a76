/** What is about to run through a wrapped D1: one statement alone, or a batch of them. */
export interface Running {
  /** Each statement's SQL, in order; '' for one not prepared through the wrapped binding. */
  sql: readonly string[];
  /** Each statement's bound values, in order; [] for one not bound through the wrapped binding. */
  params: readonly (readonly unknown[])[];
  batch: boolean;
  /** An exec: its one SQL text holds a statement a line, which D1 runs one by one (its answer's `count`). */
  exec: boolean;
}

/** Runs `run`, the query itself, and answers its result: a caller counts it, or acts before or after it. */
export type Around = <T>(running: Running, run: () => Promise<T>) => Promise<T>;

const RUNS = new Set<PropertyKey>(['run', 'all', 'first', 'raw']);

/**
 * What a wrapped statement answers with the binding's own statement, which a batch takes, and with
 * its SQL and bound values. Not a WeakMap from wrapper to statement: with one, a night's statements
 * and their bound JSON outlived their slices in workerd (the nightly benchmark's Worker heap
 * reserved up to 219 MB at a tenth, 137 MB without).
 */
const STATEMENT = Symbol('statement');
const SQL = Symbol('sql');
const PARAMS = Symbol('params');
/** A statement as a batch is given it: one of ours, or one prepared on the binding itself. */
type Given = D1PreparedStatement & { [STATEMENT]?: D1PreparedStatement; [SQL]?: string; [PARAMS]?: unknown[] };

/**
 * The D1 binding with `around` about every statement run alone and every batch, told their SQL and
 * bound values: the D1 API gives no statement's SQL nor its values, so each one prepared through the
 * wrapper keeps its own. Every way to run SQL goes through `around` (a statement, a batch, exec, a
 * session's statements), so none is left out of what it counts or does.
 */
export function wrappedD1(d1: D1Database, around: Around): D1Database {
  const wrapped = (statement: D1PreparedStatement, sql: string, params: unknown[] = []): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        if (prop === STATEMENT) return target;
        if (prop === SQL) return sql;
        if (prop === PARAMS) return params;
        if (prop === 'bind') return (...values: unknown[]) => wrapped(target.bind(...values), sql, values);
        const value = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (!RUNS.has(prop)) return value.bind(target);
        return (...args: unknown[]) => around({ sql: [sql], params: [params], batch: false, exec: false }, () => value.apply(target, args));
      },
    });
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => wrapped(target.prepare(sql), sql);
      // A session has neither exec nor withSession: they stay undefined there.
      if (prop === 'exec' && prop in target) return (sql: string) => around({ sql: [sql], params: [[]], batch: false, exec: true }, () => target.exec(sql));
      if (prop === 'withSession' && prop in target)
        return (...args: Parameters<D1Database['withSession']>) => wrappedD1(target.withSession(...args) as unknown as D1Database, around);
      if (prop === 'batch')
        return (statements: Given[]) =>
          around({ sql: statements.map((s) => s[SQL] ?? ''), params: statements.map((s) => s[PARAMS] ?? []), batch: true, exec: false }, () =>
            target.batch(statements.map((s) => s[STATEMENT] ?? s)),
          );
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
