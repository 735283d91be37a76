import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyMigratedD1 } from './local-collector.ts';
import { migrateWhenBehind, query, queryEach, withLocalD1 } from './local-d1-sql.ts';
import { type LocalD1, migrationFiles } from './wrangler.ts';

// wrangler itself is what this module saves starting: seen through a spy on this test's own D1s
// (the migrated copy they start from is made by the real one), while the D1 is read for real.
const dirs: string[] = [];
const migrate = vi.hoisted(() => vi.fn());
vi.mock('./wrangler.ts', async (original) => {
  const real = await original<typeof import('./wrangler.ts')>();
  migrate.mockImplementation((d1: LocalD1, options?: { quiet?: boolean }) =>
    dirs.includes(d1.persistTo ?? '') ? ['applied by wrangler'] : real.migrate(d1, options),
  );
  return { ...real, migrate };
});
// Each opening of a D1 starts a workerd: counted, with the real Miniflare doing the work.
const openings = vi.hoisted(() => ({ started: 0, stopped: 0 }));
vi.mock('miniflare', async (original) => {
  const real = await original<typeof import('miniflare')>();
  class Counted extends real.Miniflare {
    constructor(...args: ConstructorParameters<typeof real.Miniflare>) {
      super(...args);
      openings.started++;
    }
    override async dispose() {
      await super.dispose();
      openings.stopped++;
    }
  }
  return { ...real, Miniflare: Counted };
});
const migrated = () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-d1-sql-'));
  copyMigratedD1(persistTo);
  dirs.push(persistTo);
  return persistTo;
};
const wranglerRunsOn = (persistTo: string) => migrate.mock.calls.filter(([d1]) => d1.persistTo === persistTo).length;
afterEach(() => {
  openings.started = openings.stopped = 0;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SQL on a local D1', () => {
  it('answers each statement’s rows, and keeps none of a batch one of whose statements fails', async () => {
    const persistTo = migrated();
    const [added, listed] = await queryEach<{ id: string }>(
      ["insert into projects (id, name) values ('a', 'A') returning id", "select id from projects where id = 'a'"],
      { persistTo },
    );
    expect(added).toEqual([{ id: 'a' }]);
    expect(listed).toEqual([{ id: 'a' }]);
    await expect(
      queryEach(["insert into projects (id, name) values ('b', 'B')", "insert into projects (id, name) values ('a', 'again')"], { persistTo }),
    ).rejects.toThrow(/UNIQUE/);
    expect(await query('select id, name from projects order by id', { persistTo })).toEqual([{ id: 'a', name: 'A' }]);
  });

  it('opens the D1 once for all a command asks, only if it asks anything, and closes it even when the command fails', async () => {
    const persistTo = migrated();
    const names = await withLocalD1({ persistTo }, async (sql) => {
      await sql.query("insert into projects (id, name) values ('a', 'A')");
      // Written meanwhile through another opening (another process, as wrangler's would be): seen.
      await queryEach(["insert into projects (id, name) values ('b', 'B')"], { persistTo });
      return sql.query<{ name: string }>('select name from projects order by id');
    });
    expect(names).toEqual([{ name: 'A' }, { name: 'B' }]);
    expect(openings).toEqual({ started: 2, stopped: 2 });

    expect(await withLocalD1({ persistTo }, async () => 'asked nothing')).toBe('asked nothing');
    expect(openings).toEqual({ started: 2, stopped: 2 });

    await expect(
      withLocalD1({ persistTo }, async (sql) => {
        await sql.query('select 1');
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    expect(openings).toEqual({ started: 3, stopped: 3 });
  });

  it('leaves Ctrl-C and SIGTERM to a command that answers them itself, rather than exit before it has stopped what it started', async () => {
    const persistTo = migrated();
    const own = () => {};
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const listening = () => signals.map((signal) => process.listeners(signal).length);
    const none = listening();
    // A command without handlers of its own keeps Miniflare's, which stop its workerd and exit.
    await withLocalD1({ persistTo }, async (sql) => {
      await sql.query('select 1');
      expect(listening()).toEqual(none.map((n) => n + 1));
    });
    for (const signal of signals) process.on(signal, own);
    try {
      await withLocalD1({ persistTo }, async (sql) => {
        await sql.query('select 1');
        for (const signal of signals) expect(process.listeners(signal).at(-1)).toBe(own);
        expect(listening()).toEqual(none.map((n) => n + 1));
      });
    } finally {
      for (const signal of signals) process.removeListener(signal, own);
    }
  });

  it('starts wrangler to migrate only when a migration is due', async () => {
    const persistTo = migrated();
    expect(await withLocalD1({ persistTo }, migrateWhenBehind)).toEqual([]);
    expect(wranglerRunsOn(persistTo)).toBe(0);

    await query(`delete from d1_migrations where name = '${migrationFiles().at(-1)}'`, { persistTo });
    expect(await withLocalD1({ persistTo }, migrateWhenBehind)).toEqual(['applied by wrangler']);
    expect(wranglerRunsOn(persistTo)).toBe(1);

    // A D1 not made yet: wrangler makes it, and the D1 is not opened before.
    const none = mkdtempSync(join(tmpdir(), 'rf-d1-sql-'));
    dirs.push(none);
    const opened = openings.started;
    expect(await withLocalD1({ persistTo: none }, migrateWhenBehind)).toEqual(['applied by wrangler']);
    expect(wranglerRunsOn(none)).toBe(1);
    expect(openings.started).toBe(opened);
  });
});
