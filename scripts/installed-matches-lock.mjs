// Whether node_modules holds what package-lock.json asks for: every package the lock installs on
// this machine (optional ones, such as other platforms' binaries, may be missing) is there at its
// locked version. Read from npm's record of what it installed, so timestamps (a copied or linked
// node_modules, a checkout) do not matter. Plain JavaScript, since nothing may be installed yet.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const packagesOf = (file) => JSON.parse(readFileSync(file, 'utf8')).packages ?? {};

export function installedMatchesLock(dir = '.') {
  const record = join(dir, 'node_modules', '.package-lock.json');
  if (!existsSync(record)) return false;
  const installed = packagesOf(record);
  return Object.entries(packagesOf(join(dir, 'package-lock.json'))).every(([path, locked]) => {
    if (path === '' || locked.link) return true;
    const have = installed[path];
    return have ? have.version === locked.version : Boolean(locked.optional || locked.devOptional);
  });
}
