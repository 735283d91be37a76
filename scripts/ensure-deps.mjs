// Runs before `npm start` and `npm test`: installs the locked dependencies on a fresh clone, or
// when the lock has changed since, so the quick start is two commands. Plain JavaScript, since
// nothing is installed yet.
import { execSync } from 'node:child_process';
import { installedMatchesLock } from './installed-matches-lock.mjs';

if (!installedMatchesLock()) {
  console.log('Installing the locked dependencies (npm ci; half a minute or so on a first start)…');
  try {
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  } catch (err) {
    // npm has said why above; a stack of this script under it would only bury that.
    console.error(`error: npm ci failed (${err.status ?? err.signal}): see npm's message above, then run the command again`);
    process.exit(err.status || 1);
  }
}
