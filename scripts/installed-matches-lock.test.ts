import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installedMatchesLock } from './installed-matches-lock.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const LOCK = {
  '': { name: 'app' },
  'node_modules/lit': { version: '3.3.1' },
  'node_modules/@esbuild/darwin-arm64': { version: '0.25.0', optional: true },
  'node_modules/fsevents': { version: '2.3.3', dev: true, devOptional: true },
};

/** A project whose lock is `LOCK` and whose node_modules npm recorded as `installed`. */
function project(installed?: Record<string, { version: string }>) {
  const dir = mkdtempSync(join(tmpdir(), 'rf-deps-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: LOCK }));
  if (installed) {
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: installed }));
  }
  return dir;
}

describe('installedMatchesLock', () => {
  it('says a fresh clone needs installing', () => {
    expect(installedMatchesLock(project())).toBe(false);
  });

  it("takes an install of the lock's packages, other platforms' optional ones missing, whatever the files' times", () => {
    const dir = project({ 'node_modules/lit': { version: '3.3.1' } });
    const past = new Date('2020-01-01');
    utimesSync(join(dir, 'node_modules', '.package-lock.json'), past, past);
    expect(installedMatchesLock(dir)).toBe(true);
  });

  it('says so when a package is at another version than locked, or missing', () => {
    expect(installedMatchesLock(project({ 'node_modules/lit': { version: '3.2.0' } }))).toBe(false);
    expect(installedMatchesLock(project({}))).toBe(false);
  });
});
