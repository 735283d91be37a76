/**
 * SQL on a local D1, through the engine `wrangler dev` itself runs (miniflare's D1 in workerd), as
 * `wrangler d1 execute --local` does without starting all of wrangler first: about half a second a
 * call against several. Safe beside a running `wrangler dev`, as that command is. Used by `npm start`,
 * `npm run keys`, the throwaway collectors and the tests that check what a command stored.
 */
import type { Miniflare } from 'miniflare';
import { d1DatabaseId, d1Persist, type LocalD1, localD1Exists, migrate, migrationFiles, persistDir } from './wrangler.ts';

type D1 = Awaited<ReturnType<Miniflare['getD1Database']>>;

async function withLocalD1<T>(d1: LocalD1, use: (db: D1) => Promise<T>): Promise<T> {
  // Loaded on first use: a second of a command's start, which `npm run keys` refusing a typo need not pay.
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modules: true,
    script: 'export default {}',
    d1Databases: { DB: d1DatabaseId() },
    d1Persist: d1Persist(persistDir(d1)),
    // No `request.cf` data to fetch from the network: nothing here serves a request.
    cf: false,
  });
  try {
    return await use(await mf.getD1Database('DB'));
  } finally {
    await mf.dispose();
  }
}

/** Runs statements in one transaction; answers each one's rows (none for one that returns none). */
export function queryEach<Row = Record<string, unknown>>(statements: readonly string[], d1: LocalD1 = {}): Promise<Row[][]> {
  return withLocalD1(d1, async (db) => (await db.batch<Row>(statements.map((s) => db.prepare(s)))).map((r) => r.results));
}

/** Runs one statement; answers its rows. */
export async function query<Row = Record<string, unknown>>(sql: string, d1: LocalD1 = {}): Promise<Row[]> {
  return (await queryEach<Row>([sql], d1))[0] ?? [];
}

/**
 * Applies the migrations the local D1 has not (making it if need be), as `migrate` does, but starts
 * wrangler only when one is due: reading which are applied takes a fraction of its seconds.
 */
export async function migrateWhenBehind(d1: LocalD1 = {}): Promise<string[]> {
  if (localD1Exists(d1)) {
    // Unreadable (no d1_migrations yet, say): wrangler decides, and says what is wrong if anything is.
    const applied = await query<{ name: string }>('select name from d1_migrations', d1).catch(() => []);
    const names = new Set(applied.map((r) => r.name));
    if (migrationFiles().every((f) => names.has(f))) return [];
  }
  return migrate(d1, { quiet: true });
}
