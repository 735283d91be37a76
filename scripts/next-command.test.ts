/**
 * The "next" command a tool prints, followed as printed, reaches the collector and project this
 * run reached: the endpoint given, and a key when one was given.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { nextCommand } from './next-command.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'rf-next-'));
const keysFile = join(dir, 'dev-keys.json');
writeFileSync(keysFile, JSON.stringify({ write: 'rfw_dev', server: 'rfs_dev', admin: 'rfa_dev', viewer: 'rfv_dev' }));
// The dev project `npm start` made, without touching this checkout's own .dev-keys.json.
vi.mock('./dev-project.ts', async (original) => ({ ...(await original<typeof import('./dev-project.ts')>()), DEV_KEYS_FILE: keysFile }));

const stubs: AdminApiStub[] = [];
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the command a tool says to run next', () => {
  it('npm run seed -- --endpoint URL with the dev project says to run the nightly job on that URL', { timeout: 30_000 }, async () => {
    const collector = await stubAdminApi({
      'POST /v1/traces': { status: 200, body: { accepted: 1, rejected: 0 } },
      'POST /v1/events': { status: 200, body: { accepted: 1, rejected: 0 } },
    });
    stubs.push(collector);
    for (const name of ['RF_ENDPOINT', 'RF_SERVER_KEY', 'RF_ADMIN_KEY', 'PORT']) vi.stubEnv(name, undefined);
    // The collector on another local port, as a second `PORT=… npm start` serves it, with the dev project's keys.
    const endpoint = collector.url.replace('127.0.0.1', 'localhost');
    vi.spyOn(process, 'argv', 'get').mockReturnValue(['node', 'scripts/seed.ts', '--endpoint', endpoint, '--sessions', '1']);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await import('./seed.ts');
    expect(collector.requests[0]?.route).toBe('POST /v1/traces');
    expect(log.mock.calls.at(-1)?.[0]).toMatch(new RegExp(`\\nNext: npm run nightly -- --endpoint ${endpoint}$`));
  });

  it('npm run nightly, the night done already, says to retrain on the same collector with an admin key', { timeout: 30_000 }, async () => {
    const calledAt = Date.now();
    const collector = await stubAdminApi({
      'POST /v1/admin/nightly': {
        status: 200,
        body: { night: '2026-12-05', calledAt, done: true, runs: [{ projectId: 'p', status: 'done', stage: null, finishedAt: calledAt - 60_000, stages: [] }] },
      },
    });
    stubs.push(collector);
    const { stdout } = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/nightly.ts', '--endpoint', collector.url, '--admin-key', 'rfa_x'], {
      cwd: ROOT,
    });
    expect(stdout).toContain(`\`npm run retrain -- --endpoint ${collector.url} --admin-key <admin key>\` trains on what was reviewed since, now.`);
    expect(stdout).not.toContain('rfa_x');
  });

  it('names what a fresh shell would not reach by itself, quoted for the shell, and never a key', () => {
    expect(nextCommand('nightly', { endpoint: 'http://127.0.0.1:8787', keyGiven: false })).toBe('npm run nightly');
    expect(nextCommand('nightly', { endpoint: 'http://127.0.0.1:8790', keyGiven: false })).toBe('npm run nightly -- --endpoint http://127.0.0.1:8790');
    expect(nextCommand('retrain', { endpoint: "https://x.example/it's", keyGiven: true }, ['--model-dir', 'my models'])).toBe(
      `npm run retrain -- --endpoint 'https://x.example/it'\\''s' --admin-key <admin key> --model-dir 'my models'`,
    );
  });
});
