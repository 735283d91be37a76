import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { devVars, refuseMistypedVars, tomlVars } from './worker-vars-check.ts';
import { ROOT } from './wrangler.ts';

const dir = mkdtempSync(join(tmpdir(), 'rf-vars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A TOML file of these lines in the test's folder. */
const tomlFile = (name: string, lines: string[]) => {
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n'));
  return file;
};

describe("the Worker's settings checked before it starts or is deployed", () => {
  it("takes this repo's wrangler.toml as it is", { timeout: 30_000 }, async () => {
    expect(tomlVars(join(ROOT, 'wrangler.toml'))).toEqual({ EVENTS_INGEST: 'direct' });
    // The deploy's first step, run as `npm run deploy` runs it, goes on to build.
    const built = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/build-console.ts'], { cwd: ROOT });
    expect(built.stdout).toContain('console built in');
  });

  it('refuses a mistyped one in [vars] or .dev.vars, naming each and what it takes, and reads no other table', () => {
    const toml = tomlFile('wrangler.toml', [
      'name = "x"',
      '[vars]',
      'EVENTS_INGEST = "queu"   # a typo',
      "RATE_LIMIT_IP_PER_MIN = '1200'",
      'RATE_LIMIT_KEY_PER_MIN = 5000',
      'RATE_LIMIT_SESSION_PER_MIN = 1_200 # grouped as TOML allows',
      '[[queues.producers]]',
      'NIGHTLY_QUERY_BUDGET = "not read here"',
    ]);
    const dev = join(dir, '.dev.vars');
    writeFileSync(dev, 'NIGHTLY_QUERY_BUDGET=5OO\nADDRESS_HASH_SECRET=s3cret\n');
    const vars = { ...tomlVars(toml), ...devVars(dev) };
    expect(vars).toEqual({
      EVENTS_INGEST: 'queu',
      RATE_LIMIT_IP_PER_MIN: '1200',
      RATE_LIMIT_KEY_PER_MIN: '5000',
      RATE_LIMIT_SESSION_PER_MIN: '1200',
      NIGHTLY_QUERY_BUDGET: '5OO',
      ADDRESS_HASH_SECRET: 's3cret',
    });
    expect(() => refuseMistypedVars(vars, 'wrangler.toml [vars] or .dev.vars')).toThrow(
      'wrangler.toml [vars] or .dev.vars: EVENTS_INGEST is "queu", which the collector does not take (it takes "direct" or "queue"); NIGHTLY_QUERY_BUDGET is "5OO", which the collector does not take (it takes a whole number above 0)',
    );
    expect(() => refuseMistypedVars({ ...vars, EVENTS_INGEST: 'queue', NIGHTLY_QUERY_BUDGET: '500' }, 'x')).not.toThrow();
    expect(devVars(join(dir, 'absent'))).toEqual({});
  });

  it('reads vars written in any form TOML allows, and not those of an environment', () => {
    const toml = tomlFile('inline.toml', [
      'name = "x"',
      'vars = { EVENTS_INGEST = "queue", RATE_LIMIT_IP_PER_MIN = 1_200, NIGHTLY_QUERY_BUDGET = true }',
      '[env.staging.vars]',
      'RATE_LIMIT_KEY_PER_MIN = "not read here"',
    ]);
    expect(tomlVars(toml)).toEqual({ EVENTS_INGEST: 'queue', RATE_LIMIT_IP_PER_MIN: '1200', NIGHTLY_QUERY_BUDGET: 'true' });
    expect(() => refuseMistypedVars(tomlVars(toml), 'wrangler.toml')).toThrow(
      'wrangler.toml: NIGHTLY_QUERY_BUDGET is "true", which the collector does not take',
    );
    writeFileSync(toml, 'vars = { EVENTS_INGEST = "queue" ');
    expect(() => tomlVars(toml)).toThrow();
  });
});
