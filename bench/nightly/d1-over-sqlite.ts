/**
 * The part of the D1 binding the nightly job uses (prepare, bind, all, first, run, batch), over a
 * better-sqlite3 database, timing every statement. Running the job's own code on it gives the
 * floor: the same statements on the same data, with no Worker, no D1 round trips and no JSON
 * between them.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface StatementTime {
  /** What the caller said was running (the stage). */
  label: string;
  sql: string;
  calls: number;
  ms: number;
}

interface Result {
  results: unknown[];
  success: true;
  meta: { changes: number; duration: number };
}

/**
 * D1 numbers `?1`, `?2`…; better-sqlite3 binds those by name, so they go in as an object. A number
 * a statement skips (`?1` and `?3` alone) is a parameter without a name to better-sqlite3, which then
 * asks for it by position: numbered parameters are renamed `@p1`, `@p3`… instead.
 */
const NUMBERED = /\?(\d+)/g;
const named = (sql: string) => sql.replace(NUMBERED, '@p$1');
const bindable = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);

export class TimedD1 {
  /** Statement times by label and SQL. */
  readonly times = new Map<string, StatementTime>();
  /** Charged to whatever runs next. */
  label = '';
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  prepare(sql: string) {
    return new TimedStatement(this, sql, []);
  }

  async batch(statements: readonly TimedStatement[]): Promise<Result[]> {
    return this.db.transaction(() => statements.map((s) => s.execute()))();
  }

  /** @internal */
  execute(sql: string, params: readonly unknown[]): Result {
    let stmt = this.statements.get(sql);
    if (!stmt) this.statements.set(sql, (stmt = this.db.prepare(named(sql))));
    const values = params.map(bindable);
    const args = /\?\d/.test(sql) ? [Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v]))] : values;
    const start = performance.now();
    let results: unknown[] = [];
    let changes = 0;
    if (stmt.reader) results = stmt.all(...args);
    else changes = stmt.run(...args).changes;
    const ms = performance.now() - start;
    const key = `${this.label}\0${sql}`;
    const t = this.times.get(key) ?? { label: this.label, sql, calls: 0, ms: 0 };
    t.calls++;
    t.ms += ms;
    this.times.set(key, t);
    return { results, success: true, meta: { changes, duration: ms } };
  }
}

class TimedStatement {
  constructor(
    private readonly d1: TimedD1,
    private readonly sql: string,
    private readonly params: readonly unknown[],
  ) {}

  bind(...params: unknown[]) {
    return new TimedStatement(this.d1, this.sql, params);
  }

  /** @internal */
  execute(): Result {
    return this.d1.execute(this.sql, this.params);
  }

  async all() {
    return this.execute();
  }

  async run() {
    return this.execute();
  }

  async first(column?: string) {
    const row = this.execute().results[0] as Record<string, unknown> | undefined;
    if (row === undefined) return null;
    return column === undefined ? row : row[column];
  }
}
