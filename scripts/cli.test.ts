import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');

describe('the command-line tools', () => {
  it.each(['nightly', 'rollback', 'export-training', 'retrain'])(
    'npm run %s says in one line that the collector cannot be reached, and where',
    { timeout: 30_000 },
    async (tool) => {
      const endpoint = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      const failed = await run(tsx, [join(ROOT, 'scripts', `${tool}.ts`), '--endpoint', endpoint, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^error: the collector at ${endpoint} cannot be reached \\(.+\\): is \`npm start\` running`)),
      ]);
    },
  );

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
});
