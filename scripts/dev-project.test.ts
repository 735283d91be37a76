import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEV_KEYS_FILE, ensureDevProject, readDevKeys } from './dev-project.ts';
import { copyMigratedD1 } from './local-collector.ts';
import { type LocalD1Sql, withLocalD1 } from './local-d1-sql.ts';
import { ROOT } from './wrangler.ts';
import { wholeWriteTemp } from './write-file-whole.ts';

const liveKeys = (sql: LocalD1Sql) =>
  sql.query<{ kind: string; prefix: string }>("select kind, prefix from api_keys where project_id = 'dev' and revoked_at is null order by kind");

describe('the dev project npm start makes', () => {
  it('is made on first start, kept across starts (taking their origins), and remade when its keys stop working', { timeout: 180_000 }, async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-dev-'));
    try {
      const keysFile = join(persistTo, 'dev-keys.json');
      copyMigratedD1(persistTo);
      // As npm start does: one opening of the D1 for all of it.
      await withLocalD1({ persistTo }, async (sql) => {
        const first = await ensureDevProject(keysFile, ['http://127.0.0.1:8787'], sql);
        expect(JSON.parse(readFileSync(keysFile, 'utf8'))).toEqual(first);
        expect((await liveKeys(sql)).map((k) => [k.kind, k.prefix])).toEqual([
          ['admin', first.admin.slice(0, 10)],
          ['server', first.server.slice(0, 10)],
          ['viewer', first.viewer.slice(0, 10)],
          ['write', first.write.slice(0, 10)],
        ]);
        expect(await sql.query("select origin from project_origins where project_id = 'dev'")).toEqual([{ origin: 'http://127.0.0.1:8787' }]);

        // Started again, the demo on another port (DEMO_PORT): the same keys, and that page allowed too.
        expect(await ensureDevProject(keysFile, ['http://127.0.0.1:8787', 'http://127.0.0.1:5180'], sql)).toEqual(first);
        expect(await sql.query("select origin from project_origins where project_id = 'dev' order by origin")).toEqual([
          { origin: 'http://127.0.0.1:5180' },
          { origin: 'http://127.0.0.1:8787' },
        ]);

        await sql.query("update api_keys set revoked_at = 1 where project_id = 'dev' and kind = 'write'");
        const second = await ensureDevProject(keysFile, ['http://127.0.0.1:8787'], sql);
        expect(second.write).not.toBe(first.write);
        expect(await liveKeys(sql)).toHaveLength(7); // the old admin, server and viewer keys still work

        // A keys file from before the viewer key existed gets a full set.
        const { viewer: _, ...older } = second;
        writeFileSync(keysFile, JSON.stringify(older));
        const third = await ensureDevProject(keysFile, ['http://127.0.0.1:8787'], sql);
        expect(third.viewer).toMatch(/^rfv_/);
        expect(third.admin).not.toBe(second.admin);
        expect(existsSync(keysFile)).toBe(true);
      });
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
    }
  });

  it('replaces a keys file cut short with a fresh set, readable by its owner alone', { timeout: 120_000 }, async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-dev-'));
    try {
      const keysFile = join(persistTo, 'dev-keys.json');
      copyMigratedD1(persistTo);
      // Half of a file, left readable by others (written before, or copied).
      writeFileSync(keysFile, '{\n  "write": "rfw_', { mode: 0o644 });
      expect(() => readDevKeys(keysFile)).toThrow(`${keysFile} does not hold the dev project's keys: npm start makes new ones`);

      const keys = await withLocalD1({ persistTo }, (sql) => ensureDevProject(keysFile, [], sql));
      expect(readDevKeys(keysFile)).toEqual(keys);
      expect(await withLocalD1({ persistTo }, liveKeys)).toHaveLength(4);
      expect(statSync(keysFile).mode & 0o777).toBe(0o600);
      expect(readdirSync(persistTo).filter((f) => f.startsWith('dev-keys'))).toEqual(['dev-keys.json']);
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
    }
  });

  it('keeps its keys out of git, with the copy a crash while writing them may leave', () => {
    for (const file of [DEV_KEYS_FILE, wholeWriteTemp(DEV_KEYS_FILE)])
      expect(() => execFileSync('git', ['check-ignore', '-q', file], { cwd: ROOT })).not.toThrow();
  });
});
