/** What is about to run through a hooked D1: one statement alone, or a batch of them. */
export interface Running {
  /** Each statement's SQL, in order; '' for one not prepared through the hooked binding. */
  sql: readonly string[];
  /** Each statement's bound values, in order; [] for one not bound through the hooked binding. */
  params: readonly (readonly unknown[])[];
  batch: boolean;
}

/** Runs `run`, the query itself, and answers its result: a test awaits a change before or after it. */
export type Around = <T>(running: Running, run: () => Promise<T>) => Promise<T>;

const RUNS = new Set<PropertyKey>(['run', 'all', 'first', 'raw']);
/** What a hooked statement answers with the binding's own statement, which a batch takes, and with its SQL. */
const STATEMENT = Symbol('statement');
const SQL = Symbol('sql');
const PARAMS = Symbol('params');
type Given = D1PreparedStatement & { [STATEMENT]?: D1PreparedStatement; [SQL]?: string; [PARAMS]?: unknown[] };

/**
 * The D1 binding with `around` about every statement run alone and every batch, told their SQL:
 * a test lands a change between two reads, or just before a write, where D1 gives no hook. The
 * D1 API gives no statement's SQL nor its bound values, so each one prepared through it keeps its own.
 */
export function hookedD1(d1: D1Database, around: Around): D1Database {
  const hooked = (statement: D1PreparedStatement, sql: string, params: unknown[] = []): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        if (prop === STATEMENT) return target;
        if (prop === SQL) return sql;
        if (prop === PARAMS) return params;
        if (prop === 'bind') return (...values: unknown[]) => hooked(target.bind(...values), sql, values);
        const value = Reflect.get(target, prop);
        if (typeof value !== 'function') return value;
        if (!RUNS.has(prop)) return value.bind(target);
        return (...args: unknown[]) => around({ sql: [sql], params: [params], batch: false }, () => value.apply(target, args));
      },
    });
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === 'prepare') return (sql: string) => hooked(target.prepare(sql), sql);
      // The other ways to run SQL go through `around` too: a hooked D1 that is down is down for all of them.
      if (prop === 'exec') return (sql: string) => around({ sql: [sql], params: [[]], batch: false }, () => target.exec(sql));
      if (prop === 'withSession')
        return (...args: Parameters<D1Database['withSession']>) => hookedD1(target.withSession(...args) as unknown as D1Database, around);
      if (prop === 'batch')
        return (statements: Given[]) =>
          around({ sql: statements.map((s) => s[SQL] ?? ''), params: statements.map((s) => s[PARAMS] ?? []), batch: true }, () =>
            target.batch(statements.map((s) => s[STATEMENT] ?? s)),
          );
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
