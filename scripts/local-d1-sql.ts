/**
 * SQL on a local D1, through the engine `wrangler dev` itself runs (miniflare's D1 in workerd), as
 * `wrangler d1 execute --local` does without starting all of wrangler first: about half a second an
 * opening against several. Safe beside a running `wrangler dev`, as that command is. Used by `npm start`,
 * `npm run keys`, the throwaway collectors and the tests that check what a command stored.
 */
import type { Miniflare } from 'miniflare';
import { d1DatabaseId, d1Persist, type LocalD1, localD1Exists, migrate, migrationFiles, persistDir } from './wrangler.ts';

type D1 = Awaited<ReturnType<Miniflare['getD1Database']>>;

/** SQL on one local D1, for as long as `withLocalD1` lends it. */
export interface LocalD1Sql {
  readonly d1: LocalD1;
  /** Runs statements in one transaction; answers each one's rows (none for one that returns none). */
  queryEach<Row = Record<string, unknown>>(statements: readonly string[]): Promise<Row[][]>;
  /** Runs one statement; answers its rows. */
  query<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
}

/**
 * Lends `use` the local D1, opened on its first statement (each opening starts a workerd, about
 * half a second) and closed when `use` settles: a command asks all it needs through one opening.
 */
export async function withLocalD1<T>(d1: LocalD1, use: (sql: LocalD1Sql) => Promise<T>): Promise<T> {
  let mf: Miniflare | undefined;
  let db: Promise<D1> | undefined;
  const open = () =>
    (db ??= (async () => {
      // Loaded on first use: a second of a command's start, which `npm run keys` refusing a typo need not pay.
      const { Miniflare } = await import('miniflare');
      mf = leavingSignalsToTheCommand(
        () =>
          new Miniflare({
            modules: true,
            script: 'export default {}',
            d1Databases: { DB: d1DatabaseId() },
            d1Persist: d1Persist(persistDir(d1)),
            // No `request.cf` data to fetch from the network: nothing here serves a request.
            cf: false,
          }),
      );
      return mf.getD1Database('DB');
    })());
  const sql: LocalD1Sql = {
    d1,
    async queryEach<Row>(statements: readonly string[]) {
      const db = await open();
      return (await db.batch<Row>(statements.map((s) => db.prepare(s)))).map((r) => r.results);
    },
    async query<Row>(statement: string) {
      return (await sql.queryEach<Row>([statement]))[0] ?? [];
    },
  };
  try {
    return await use(sql);
  } finally {
    // An opening still under way when `use` failed is waited for, so that its workerd is stopped too.
    await db?.catch(() => undefined);
    await mf?.dispose();
  }
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Makes a Miniflare without the Ctrl-C and SIGTERM handlers it adds, when the command has its own:
 * Miniflare's exit at once (130, 143), so a throwaway collector provisioning its D1 while wrangler starts would
 * end (`npm start`'s way of stopping, start-stop.ts) before its handler stopped wrangler. Its workerd, in the command's process group, gets the
 * signal too; the handler on 'exit' it keeps still tidies up after it.
 */
function leavingSignalsToTheCommand<T>(make: () => T): T {
  const before = new Map(STOP_SIGNALS.map((signal) => [signal, process.listeners(signal)]));
  const made = make();
  for (const signal of STOP_SIGNALS) {
    const own = before.get(signal)!;
    if (own.length === 0) continue;
    for (const listener of process.listeners(signal)) if (!own.includes(listener)) process.removeListener(signal, listener);
  }
  return made;
}

/** `LocalD1Sql.queryEach` through an opening of its own. */
export function queryEach<Row = Record<string, unknown>>(statements: readonly string[], d1: LocalD1 = {}): Promise<Row[][]> {
  return withLocalD1(d1, (sql) => sql.queryEach<Row>(statements));
}

/** `LocalD1Sql.query` through an opening of its own. */
export function query<Row = Record<string, unknown>>(statement: string, d1: LocalD1 = {}): Promise<Row[]> {
  return withLocalD1(d1, (sql) => sql.query<Row>(statement));
}

/**
 * Applies the migrations the local D1 has not (making it if need be), as `migrate` does, but starts
 * wrangler only when one is due: reading which are applied takes a fraction of its seconds.
 */
export async function migrateWhenBehind(sql: LocalD1Sql): Promise<string[]> {
  if (localD1Exists(sql.d1)) {
    // Unreadable (no d1_migrations yet, say): wrangler decides, and says what is wrong if anything is.
    const applied = await sql.query<{ name: string }>('select name from d1_migrations').catch(() => []);
    const names = new Set(applied.map((r) => r.name));
    if (migrationFiles().every((f) => names.has(f))) return [];
  }
  return migrate(sql.d1, { quiet: true });
}
