import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { copyMigratedD1 } from './local-collector.ts';
import { migrateWhenBehind, query, queryEach } from './local-d1-sql.ts';
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
const migrated = () => {
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-d1-sql-'));
  copyMigratedD1(persistTo);
  dirs.push(persistTo);
  return persistTo;
};
const wranglerRunsOn = (persistTo: string) => migrate.mock.calls.filter(([d1]) => d1.persistTo === persistTo).length;
afterEach(() => {
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

  it('starts wrangler to migrate only when a migration is due', async () => {
    const persistTo = migrated();
    expect(await migrateWhenBehind({ persistTo })).toEqual([]);
    expect(wranglerRunsOn(persistTo)).toBe(0);

    await query(`delete from d1_migrations where name = '${migrationFiles().at(-1)}'`, { persistTo });
    expect(await migrateWhenBehind({ persistTo })).toEqual(['applied by wrangler']);
    expect(wranglerRunsOn(persistTo)).toBe(1);

    // A D1 not made yet: wrangler makes it.
    const none = mkdtempSync(join(tmpdir(), 'rf-d1-sql-'));
    dirs.push(none);
    expect(await migrateWhenBehind({ persistTo: none })).toEqual(['applied by wrangler']);
    expect(wranglerRunsOn(none)).toBe(1);
  });
});
