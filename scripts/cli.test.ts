import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { stubAdminApi } from './admin-api-stub.ts';
import { unreachable } from './cli.ts';
import { freePort } from './free-port.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');

describe('the command-line tools', () => {
  it.each(['nightly', 'rollback', 'export-training', 'retrain'])(
    'npm run %s says in one line that the collector cannot be reached, where, and that PORT picks the port npm start was given',
    { timeout: 30_000 },
    async (tool) => {
      const endpoint = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      const failed = await run(tsx, [join(ROOT, 'scripts', `${tool}.ts`), '--endpoint', endpoint, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^error: the collector at ${endpoint} cannot be reached \\(.+\\): is \`npm start\` running, on that port \\(one started with PORT=… takes the same PORT here\\), or is --endpoint right\\?$`,
          ),
        ),
      ]);
    },
  );

  it('points at the address given, not at PORT, when the collector that cannot be reached is not on this machine', () => {
    const err = new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND feedback.example.com') });
    expect(unreachable('https://feedback.example.com/v1/admin/runs', err)).toBe(
      'the collector at https://feedback.example.com cannot be reached (getaddrinfo ENOTFOUND feedback.example.com): is the collector up there, and is --endpoint (or RF_ENDPOINT) right?',
    );
    expect(unreachable('http://localhost:8787/v1/traces', err)).toMatch(/PORT/);
  });

  it.each([
    ['nightly', 'npm run nightly'],
    ['rollback', 'npm run rollback'],
    ['export-training', 'npm run export:training'],
    ['retrain', 'npm run retrain'],
    ['seed', 'npm run seed'],
  ])('npm run %s -- --help prints its usage, and a flag it does not take is refused in one line with it', { timeout: 30_000 }, async (tool, usage) => {
    const script = join(ROOT, 'scripts', `${tool}.ts`);
    const help = await run(tsx, [script, '--help'], { cwd: ROOT });
    expect(help.stdout).toMatch(new RegExp(`^usage: ${usage} \\[-- --endpoint URL`));
    const failed = await run(tsx, [script, '--endpiont', 'http://127.0.0.1:1'], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr.trim().split('\n')).toEqual([`error: Unknown option '--endpiont'; usage: ${help.stdout.trim().slice('usage: '.length)}`]);
  });

  // Each would otherwise do its work: open a file named --help, start the collector and the demo, fail.
  it.each([
    ['archive-lines', 'npm run -s archive:lines -- [FILE]'],
    ['start', 'npm start (settings in the environment'],
    ['keys', 'npm run keys -- create <project-id>'],
  ])('npm run %s -- --help prints its usage alone, exit 0', { timeout: 30_000 }, async (tool, usage) => {
    const help = await run(tsx, [join(ROOT, 'scripts', `${tool}.ts`), '--help'], { cwd: ROOT });
    expect(help.stderr).toBe('');
    expect(help.stdout.slice(0, `usage: ${usage}`.length)).toBe(`usage: ${usage}`);
  });

  it('npm run bench -- --help prints its usage alone, and a suite it does not have is refused rather than running none', { timeout: 30_000 }, async () => {
    const bench = join(ROOT, 'bench', 'run.ts');
    const help = await run(tsx, [bench, '--help'], { cwd: ROOT });
    expect(help.stdout).toMatch(/^usage: npm run bench \[-- <suite>…\], suites: collector, /);
    const refused = await run(tsx, [bench, 'nightyl'], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toMatch(/^error: no suite "nightyl"; usage: npm run bench/);
  });

  it.each([
    ['--sessions', 'abc', 'from 1 to 100000'],
    ['--sessions', '-1', 'from 1 to 100000'],
    ['--sessions', '1.5', 'from 1 to 100000'],
    ['--seed', '-1', 'from 0 to 4294967295'],
    ['--seed', '1e3', 'from 0 to 4294967295'],
  ])('npm run seed refuses %s=%s before sending anything, in one line', { timeout: 30_000 }, async (flag, value, range) => {
    const endpoint = `http://127.0.0.1:${await freePort()}`; // nothing listens there: a number let through would fail reaching it
    const failed = await run(tsx, [join(ROOT, 'scripts', 'seed.ts'), '--endpoint', endpoint, '--server-key', 'rfs_x', `${flag}=${value}`], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe(`error: ${flag} must be a whole number ${range}, not "${value}"\n`);
  });

  it('npm run nightly says so when the address answers with a page, not the collector (a sign-in proxy in front of it)', { timeout: 30_000 }, async () => {
    const proxy = await stubAdminApi({ 'POST /v1/admin/nightly': { status: 200, body: '<!DOCTYPE html><title>Sign in</title>' } });
    try {
      const failed = await run(tsx, [join(ROOT, 'scripts', 'nightly.ts'), '--endpoint', proxy.url, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe(
        'error: POST /v1/admin/nightly answered 200 with text/html, not the collector\'s JSON ("<!DOCTYPE html><title>Sign in</title>"): is --endpoint the collector\'s address?\n',
      );
    } finally {
      await proxy.close();
    }
  });

  it('npm run seed says so too', { timeout: 30_000 }, async () => {
    const proxy = await stubAdminApi({ 'POST /v1/traces': { status: 200, body: '<!DOCTYPE html><title>Sign in</title>' } });
    try {
      const failed = await run(tsx, [join(ROOT, 'scripts', 'seed.ts'), '--endpoint', proxy.url, '--server-key', 'rfs_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(
        /^error: POST \/v1\/traces answered 200 with text\/html, not the collector's JSON .+: is --endpoint the collector's address\?\n$/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('npm run nightly says where an address redirects, rather than following it (a POST would go on as a GET, without its key)', {
    timeout: 30_000,
  }, async () => {
    // As an http address does that only takes https.
    const http = await stubAdminApi({
      'POST /v1/admin/nightly': { status: 301, body: '', headers: { location: 'https://feedback.example.com/v1/admin/nightly' } },
    });
    try {
      const failed = await run(tsx, [join(ROOT, 'scripts', 'nightly.ts'), '--endpoint', http.url, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe(`error: ${http.url} redirects to https://feedback.example.com: give that as --endpoint\n`);
    } finally {
      await http.close();
    }
  });

  it('npm run nightly says a redirect to another page is no address of the collector (a sign-in page in front of it)', { timeout: 30_000 }, async () => {
    const guarded = await stubAdminApi({
      'POST /v1/admin/nightly': {
        status: 302,
        body: '',
        headers: { location: 'https://team.cloudflareaccess.com/cdn-cgi/access/login/feedback.example.com?kid=1' },
      },
    });
    try {
      const failed = await run(tsx, [join(ROOT, 'scripts', 'nightly.ts'), '--endpoint', guarded.url, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(
        `error: ${guarded.url} redirects to https://team.cloudflareaccess.com/cdn-cgi/access/login/feedback.example.com, not to the collector's route`,
      );
      expect(failed?.stderr).not.toContain('give that as --endpoint');
    } finally {
      await guarded.close();
    }
  });

  it('npm run retrain refuses --fp32 without an embedding model, which it would not change', { timeout: 30_000 }, async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`; // nothing listens there: a flag let through would fail reaching it
    const failed = await run(tsx, [join(ROOT, 'scripts', 'retrain.ts'), '--endpoint', endpoint, '--admin-key', 'rfa_x', '--fp32'], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe("error: --fp32 picks an embedding model's full-precision weights: give --embedding-model or --model-dir too\n");
  });
});
