// Runs before `npm start` and `npm test`: installs the locked dependencies on a fresh clone,
// so the quick start is two commands. Plain JavaScript, since nothing is installed yet.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const installed = 'node_modules/.package-lock.json';
if (!existsSync(installed) || statSync('package-lock.json').mtimeMs > statSync(installed).mtimeMs) {
  console.log('Installing the locked dependencies (npm ci; a minute or two on a first start)…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
