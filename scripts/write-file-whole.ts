import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `path` whole or not at all: into a file beside it, renamed over it, so a crash leaves the
 * old content or the new, never half of it (a disk filling up, a crash). `mode`, if given, holds
 * even when `path` existed with another one (a file of keys made readable by others before stays
 * so if only written over).
 */
export function writeFileWhole(path: string, data: string, mode?: number): void {
  const temp = wholeWriteTemp(path);
  try {
    writeFileSync(temp, data, mode === undefined ? {} : { mode });
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** The file `writeFileWhole` fills before renaming it: a crash may leave it, so what ignores `path` (git) must ignore it too. */
export const wholeWriteTemp = (path: string): string => `${path}.${process.pid}.tmp`;
