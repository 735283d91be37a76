import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashKey } from '../collector/auth/key-format.ts';
import { copyMigratedD1 } from './local-collector.ts';
import { query } from './local-d1-sql.ts';
import { ROOT } from './wrangler.ts';

const keys = (...args: string[]) => execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/keys.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

describe('npm run keys', () => {
  // Each step is a command of its own (seconds on a busy 2-core machine). The D1 starts migrated,
  // as applying every migration takes 15 s more (wrangler.test.ts checks that on a new D1).
  it('creates a project with four hashed keys, lists them, and revokes one', { timeout: 180_000 }, async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    copyMigratedD1(persistTo);
    const out = keys('create', 'acme', '--name', 'Acme', '--origin', 'https://app.acme.example', '--persist-to', persistTo);
    const write = out.match(/write key .*: (rfw_\w+)/)![1]!;
    const server = out.match(/server key .*: (rfs_\w+)/)![1]!;
    const stored = await query<{ key_hash: string; kind: string }>("select key_hash, kind from api_keys where project_id = 'acme' order by kind", {
      persistTo,
    });
    expect(stored.map((k) => k.kind)).toEqual(['admin', 'server', 'viewer', 'write']);
    expect(stored.find((k) => k.kind === 'write')!.key_hash).toBe(await hashKey(write));
    expect(JSON.stringify(stored)).not.toContain(write); // only hashes are kept

    expect(keys('list', '--persist-to', persistTo)).toContain('https://app.acme.example');
    // Again for the same project: a second key set, and it says the project was there.
    const again = keys('create', 'acme', '--name', 'Other', '--origin', 'http://localhost:5173', '--persist-to', persistTo);
    expect(again).toContain(
      'Project acme exists ("Acme", origins: https://app.acme.example): four more keys added to it; its name stays as it was, and http://localhost:5173 is now allowed too.',
    );
    // Origins change without new keys: one added, one removed.
    expect(keys('origins', 'acme', '--add', 'https://staging.acme.example', '--remove', 'http://localhost:5173', '--persist-to', persistTo)).toContain(
      'Project acme origins: https://app.acme.example, https://staging.acme.example',
    );
    expect(await query("select count(*) as n from api_keys where project_id = 'acme'", { persistTo })).toEqual([{ n: 8 }]);
    expect(keys('revoke', server.slice(0, 10), '--persist-to', persistTo)).toContain('Revoked 1 key');
    expect(await query("select count(*) as n from api_keys where project_id = 'acme' and revoked_at is not null", { persistTo })).toEqual([{ n: 1 }]);
    // Again, or mistyped: nothing revoked, and the exit code says so.
    expect(() => keys('revoke', server.slice(0, 10), '--persist-to', persistTo)).toThrow(`error: no live key starts ${server.slice(0, 10)} in this D1`);
    // A write key goes on working for 30 days, for events visitors' outboxes recorded under it.
    const revokedAt = async () =>
      (await query<{ at: number }>(`select revoked_at as at from api_keys where key_hash = '${await hashKey(write)}'`, { persistTo }))[0]!.at - Date.now();
    expect(keys('revoke', write.slice(0, 10), '--persist-to', persistTo)).toMatch(/^Revoked 1 key\(s\) starting rfw_\w+: working until 20\d\d-/);
    expect(await revokedAt()).toBeGreaterThan(29.9 * 86_400_000);
    expect(await revokedAt()).toBeLessThanOrEqual(30 * 86_400_000);
    expect(keys('list', '--persist-to', persistTo)).toMatch(/'from 20\d\d-\d\d-\d\dT\d\d:\d\dZ'/);
    // Still live: revoked again, at once.
    expect(keys('revoke', write.slice(0, 10), '--after', '0', '--persist-to', persistTo)).toBe(`Revoked 1 key(s) starting ${write.slice(0, 10)}\n`);
    expect(await revokedAt()).toBeLessThanOrEqual(0);
  });

  it('says how to make a project it does not find, in the D1 it looked in', { timeout: 120_000 }, () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    copyMigratedD1(persistTo);
    const run = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/keys.ts', 'origins', 'acme', '--add', 'https://app.acme.example', '--persist-to', persistTo],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    rmSync(persistTo, { recursive: true, force: true });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`error: no project acme: make it with npm run keys -- create acme --persist-to ${persistTo}\n`);
  });

  it('lists no projects in words, saying how to make one in that D1', { timeout: 120_000 }, () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    copyMigratedD1(persistTo);
    const out = keys('list', '--persist-to', persistTo);
    rmSync(persistTo, { recursive: true, force: true });
    expect(out).toBe(`No projects in this D1: npm run keys -- create <project-id> --persist-to ${persistTo} makes one\n`);
  });

  it('prints only SQL on stdout with --print-sql, the keys on stderr, and leaves the local D1 alone', { timeout: 60_000 }, () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/keys.ts', 'create', 'remote', '--print-sql', '--persist-to', persistTo], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const statements = run.stdout.trim().split('\n');
    expect(statements.length).toBeGreaterThan(2);
    for (const line of statements) expect(line).toMatch(/^insert into /);
    expect(run.stderr).toMatch(/admin key .*:\s+rfa_\w+/);
    expect(run.stderr).toMatch(/viewer key .*:\s+rfv_\w+/);
    expect(run.stdout).not.toMatch(/rf[wsav]_\w{20}/);
    expect(readdirSync(persistTo)).toEqual([]);
  });

  it('names an origin given twice once', { timeout: 60_000 }, () => {
    const run = spawnSync(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      ['scripts/keys.ts', 'create', 'twice', '--origin', 'https://app.example.com', '--origin', 'https://app.example.com', '--print-sql'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('Project twice (origins: https://app.example.com)\n');
    expect(run.stdout.match(/insert into project_origins/g)).toHaveLength(1);
  });

  it('refuses an origin that is not an origin', () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    expect(() => keys('create', 'bad', '--origin', 'https://app.example/path', '--persist-to', persistTo)).toThrow(/not an origin/);
    expect(() => keys('origins', 'bad', '--add', 'app.example', '--persist-to', persistTo)).toThrow(/not an origin/);
    // Written otherwise than a browser sends it: the form it sends is named.
    for (const [given, sent] of [
      ['https://app.example.com/', 'https://app.example.com'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ])
      expect(() => keys('origins', 'bad', '--add', given!, '--persist-to', persistTo)).toThrow(
        `not an origin (scheme://host[:port]): ${given}: give it as the browser sends it, ${sent}`,
      );
    expect(readdirSync(persistTo)).toEqual([]);
  });

  it("prints the SQL that revokes a deployed collector's key with --print-sql, and leaves the local D1 alone", () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    expect(keys('revoke', 'rfs_AbCdEf12345', '--print-sql', '--persist-to', persistTo)).toMatch(
      /^update api_keys set revoked_at = .+ where prefix = 'rfs_AbCdEf' and \(revoked_at is null or revoked_at > .+\);\n$/,
    );
    expect(readdirSync(persistTo)).toEqual([]);
  });

  // A D1 no start has made yet: each says what is not there, and none makes the D1.
  it.each([
    [['revoke', 'rfs_AbCdEf12345'], 1, "error: no live key starts rfs_AbCdEf in this D1 (a deployed collector's: --print-sql)"],
    [['list'], 0, 'No projects in this D1: npm run keys -- create <project-id> --persist-to DIR makes one'],
    [['origins', 'acme', '--add', 'https://app.acme.example'], 1, 'error: no project acme: make it with npm run keys -- create acme --persist-to DIR'],
  ])('says in one line, on a D1 no start has made yet, for %j (exit %i): %s', (args, status, message) => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/keys.ts', ...args, '--persist-to', persistTo], { cwd: ROOT, encoding: 'utf8' });
    const made = readdirSync(persistTo);
    rmSync(persistTo, { recursive: true, force: true });
    expect(run.status).toBe(status);
    expect((status ? run.stderr : run.stdout).replaceAll(persistTo, 'DIR')).toBe(`${message}\n`);
    expect(made).toEqual([]);
  });

  it('ends quietly, exit 0, when what reads its list goes first (| head -1)', async () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/keys.ts', 'list', '--persist-to', persistTo], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    // Gone before it writes a line: what a reader that took its first line and quit leaves it.
    child.stdout.destroy();
    const [code] = await once(child, 'exit');
    rmSync(persistTo, { recursive: true, force: true });
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it.each([
    [['create', 'acme', '--nmae', 'Acme'], "Unknown option '--nmae'"],
    [['create', 'acme', '--name', 'Acme', 'Corp'], 'unexpected "Corp"; usage: npm run keys -- create'],
    [['create', '--name', 'Acme'], 'missing the project id; usage: npm run keys -- create <project-id>'],
    [['revoke', '--after', '0'], "missing the key's prefix (its first 10 characters); usage: npm run keys -- revoke"],
    [['origins', 'acme', '--origin', 'https://app.acme.example'], 'origins takes no --origin; usage: npm run keys -- origins'],
    [['list', '--print-sql'], 'list takes no --print-sql'],
    [['revoke', 'rfs_AbCd'], '"rfs_AbCd" is shorter than a key\'s prefix: give its first 10 characters'],
    [['revoke', 'rfw_AbCdEf12345', '--after', 'a week'], '--after must be a whole number of days from 0 to 3650, not "a week"'],
  ])('refuses %j in one line, touching nothing: %s', (args, message) => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-keys-'));
    const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/keys.ts', ...args, '--persist-to', persistTo], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`error: ${message}`)]);
    expect(readdirSync(persistTo)).toEqual([]);
  });
});
