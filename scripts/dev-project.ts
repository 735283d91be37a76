import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashKey } from '../collector/auth/key-format.ts';
import { KEY_KINDS, type KeyKind } from '../collector/auth/key-kinds.ts';
import { originStatements, provisionProject } from '../collector/auth/provision.ts';
import type { LocalD1Sql } from './local-d1-sql.ts';
import { ROOT } from './wrangler.ts';
import { writeFileWhole } from './write-file-whole.ts';

export type DevKeys = Record<KeyKind, string>;

/** Where `npm start` keeps the dev project's keys (git-ignored). */
export const DEV_KEYS_FILE = join(ROOT, '.dev-keys.json');

/**
 * The `dev` project's keys: the ones saved in `keysFile` if one of each kind still works in this D1
 * (a wiped .wrangler/state, or revoked keys, get a fresh set), else new ones, saved and returned.
 */
export async function ensureDevProject(keysFile: string, origins: readonly string[], sql: LocalD1Sql): Promise<DevKeys> {
  // A file that does not parse (cut short, or edited) holds no key anyone can use: a fresh set replaces it.
  const keys = existsSync(keysFile) ? keysIn(keysFile) : undefined;
  if (keys) {
    const hashes = await Promise.all(KEY_KINDS.map((kind) => hashKey(keys[kind] ?? '')));
    const [row] = await sql.query<{ n: number; origins: string | null }>(
      `select (select count(*) from api_keys where revoked_at is null and key_hash in (${hashes.map((h) => `'${h}'`).join(',')})) as n,
         (select group_concat(origin, ' ') from project_origins where project_id = 'dev') as origins`,
    );
    // A file from before a kind of key existed gets a fresh set too.
    if (row?.n === KEY_KINDS.length) {
      // A start on other ports than the first (PORT, DEMO_PORT) adds them, or the demo's feedback would be refused.
      const missing = origins.filter((o) => !(row.origins ?? '').split(' ').includes(o));
      if (missing.length) await sql.queryEach(originStatements('dev', { add: missing }));
      return keys as DevKeys;
    }
  }
  const p = await provisionProject({ id: 'dev', name: 'Local development', origins });
  await sql.queryEach(p.statements);
  writeFileWhole(keysFile, `${JSON.stringify(p.keys, null, 2)}\n`, 0o600);
  return p.keys;
}

/** The keys `npm start` saved, for the scripts that talk to the running collector. */
export function readDevKeys(keysFile = DEV_KEYS_FILE): DevKeys {
  if (!existsSync(keysFile)) throw new Error(`No ${keysFile}: run npm start first, it creates the dev project and its keys`);
  const keys = keysIn(keysFile);
  if (!keys) throw new Error(`${keysFile} does not hold the dev project's keys: npm start makes new ones`);
  return keys as DevKeys;
}

/** The keys a keys file holds, or undefined when it is not a JSON object. */
function keysIn(keysFile: string): Partial<DevKeys> | undefined {
  try {
    const keys: unknown = JSON.parse(readFileSync(keysFile, 'utf8'));
    return typeof keys === 'object' && keys !== null ? (keys as Partial<DevKeys>) : undefined;
  } catch {
    return undefined;
  }
}
