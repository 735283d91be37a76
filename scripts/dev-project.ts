import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashKey } from '../collector/auth/key-format.ts';
import { KEY_KINDS, type KeyKind } from '../collector/auth/key-kinds.ts';
import { provisionProject } from '../collector/auth/provision.ts';
import { type LocalD1, query, ROOT } from './wrangler.ts';

export type DevKeys = Record<KeyKind, string>;

/** Where `npm start` keeps the dev project's keys (git-ignored). */
export const DEV_KEYS_FILE = join(ROOT, '.dev-keys.json');

/**
 * The `dev` project's keys: the ones saved in `keysFile` if one of each kind still works in this D1
 * (a wiped .wrangler/state, or revoked keys, get a fresh set), else new ones, saved and returned.
 */
export async function ensureDevProject(keysFile: string, origins: readonly string[], d1: LocalD1 = {}): Promise<DevKeys> {
  if (existsSync(keysFile)) {
    const keys = JSON.parse(readFileSync(keysFile, 'utf8')) as Partial<DevKeys>;
    const hashes = await Promise.all(KEY_KINDS.map((kind) => hashKey(keys[kind] ?? '')));
    const [row] = query<{ n: number }>(
      `select count(*) as n from api_keys where revoked_at is null and key_hash in (${hashes.map((h) => `'${h}'`).join(',')})`,
      d1,
    );
    // A file from before a kind of key existed gets a fresh set too.
    if (row?.n === KEY_KINDS.length) return keys as DevKeys;
  }
  const p = await provisionProject({ id: 'dev', name: 'Local development', origins });
  query(p.statements.join('\n'), d1);
  writeFileSync(keysFile, `${JSON.stringify(p.keys, null, 2)}\n`, { mode: 0o600 });
  return p.keys;
}

/** The keys `npm start` saved, for the scripts that talk to the running collector. */
export function readDevKeys(keysFile = DEV_KEYS_FILE): DevKeys {
  if (!existsSync(keysFile)) throw new Error(`No ${keysFile}: run npm start first, it creates the dev project and its keys`);
  return JSON.parse(readFileSync(keysFile, 'utf8')) as DevKeys;
}
