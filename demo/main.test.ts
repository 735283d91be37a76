import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/wrangler.ts';

/** `npm run demo` as a user starts it, with the environment given; what it wrote to stderr and its exit code. */
function runDemo(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'demo', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DEMO_PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr.trim() };
}

describe('npm run demo', () => {
  it('says in one line that DEMO_CORPUS does not exist, and exits 1', () => {
    const missing = join(ROOT, 'no-such-corpus');
    expect(runDemo({ DEMO_CORPUS: missing })).toEqual({
      status: 1,
      stderr: `error: ${missing} does not exist: give a BEIR directory (holding corpus.jsonl)`,
    });
  });

  it('refuses a DEMO_PORT that is not a port in one line naming it', () => {
    expect(runDemo({ DEMO_PORT: 'abc' })).toEqual({ status: 1, stderr: 'error: DEMO_PORT must be a whole number from 0 to 65535, not "abc"' });
  });
});
