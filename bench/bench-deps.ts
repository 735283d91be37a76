/**
 * What only some benchmarks need (bench/package.json: a native SQLite, compiled on install) is kept
 * out of the product's `npm ci`, where compiling it took over a minute of every install and CI run.
 * Installed into bench/node_modules from bench/package-lock.json the first time a suite needs it.
 */
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { installedMatchesLock } from '../scripts/installed-matches-lock.mjs';
import { ROOT } from '../scripts/wrangler.ts';

export function ensureBenchDeps(): void {
  const dir = join(ROOT, 'bench');
  if (installedMatchesLock(dir)) return;
  console.error('Installing the benchmarks’ own dependencies (bench/package.json; a native SQLite compiles in a minute or two)…');
  execSync('npm ci --no-audit --no-fund', { cwd: dir, stdio: ['ignore', 2, 2] });
}
