import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './wrangler.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ensure-deps (before npm start and npm test)', () => {
  it("says in one line that npm ci failed, under npm's own message, and exits with its code", () => {
    // A fresh clone whose install fails (no network, say), with an npm that fails as npm does.
    const dir = mkdtempSync(join(tmpdir(), 'rf-ensure-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'app' }, 'node_modules/lit': { version: '3.3.1' } } }),
    );
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'npm'), '#!/bin/sh\necho "npm error code ENOTFOUND" >&2\nexit 7\n');
    chmodSync(join(dir, 'bin', 'npm'), 0o755);
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-deps.mjs')], {
      cwd: dir,
      env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(run.status).toBe(7);
    expect(run.stderr).toBe("npm error code ENOTFOUND\nerror: npm ci failed (7): see npm's message above, then run the command again\n");
  });
});
