/**
 * Which collector and key the command-line tools talk to: the flags, else RF_ENDPOINT and
 * RF_<KIND>_KEY, else the local dev project `npm start` created.
 */
import { existsSync } from 'node:fs';
import { DEV_KEYS_FILE, readDevKeys } from './dev-project.ts';

/** The collector's base URL, without a trailing slash. */
export const collectorEndpoint = (flag?: string): string =>
  (flag ?? process.env.RF_ENDPOINT ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`).replace(/\/+$/, '');

/** A project key of `kind`; `given` when it came from a flag or the environment rather than the dev project. */
export function projectKey(kind: 'admin' | 'server', flag?: string): { key: string; given: boolean } {
  const given = flag ?? process.env[`RF_${kind.toUpperCase()}_KEY`];
  const key = given ?? (existsSync(DEV_KEYS_FILE) ? readDevKeys()[kind] : undefined);
  if (!key) throw new Error(`No ${kind} key: pass --${kind}-key (or set RF_${kind.toUpperCase()}_KEY), or run \`npm start\` once to create the dev project`);
  return { key, given: given !== undefined };
}
