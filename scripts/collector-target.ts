/**
 * Which collector and key the command-line tools talk to: the flags, else RF_ENDPOINT and
 * RF_<KIND>_KEY, else the local dev project `npm start` created.
 */
import { existsSync } from 'node:fs';
import { endpointProblem, isHttpUrl, isLoopback, withoutCredentials } from '../shared/url.ts';
import { wholeNumber } from './cli.ts';
import { DEV_KEYS_FILE, readDevKeys } from './dev-project.ts';

/** The port `npm start` serves the collector on: PORT, else 8787. */
export const localCollectorPort = (): number => wholeNumber('PORT', process.env.PORT ?? '8787', 1, 65_535);

/** The collector's base URL, without a trailing slash; one that is not an http(s) URL, or cannot be one (`endpointProblem`), is refused, naming where it came from. */
export function collectorEndpoint(flag?: string): string {
  const [given, from] =
    flag !== undefined
      ? [flag, '--endpoint']
      : process.env.RF_ENDPOINT !== undefined
        ? [process.env.RF_ENDPOINT, 'RF_ENDPOINT']
        : [`http://127.0.0.1:${localCollectorPort()}`, 'PORT'];
  if (!isHttpUrl(given)) throw new Error(`${from} is not an http(s) URL: ${JSON.stringify(withoutCredentials(given))} (say https://feedback.example.com)`);
  const problem = endpointProblem(given);
  if (problem) throw new Error(`${from} ${problem}`);
  return given.replace(/\/+$/, '');
}

/** A project key of `kind` for `endpoint`; `given` when it came from a flag or the environment rather than the dev project. */
export function projectKey(kind: 'admin' | 'server', endpoint: string, flag?: string, keysFile = DEV_KEYS_FILE): { key: string; given: boolean } {
  // The dev project lives in the local D1: its keys mean nothing to another collector, and are not sent there.
  const given = flag ?? process.env[`RF_${kind.toUpperCase()}_KEY`];
  const key = given ?? (isLoopback(endpoint) && existsSync(keysFile) ? readDevKeys(keysFile)[kind] : undefined);
  if (!key)
    throw new Error(
      isLoopback(endpoint)
        ? `No ${kind} key: pass --${kind}-key (or set RF_${kind.toUpperCase()}_KEY), or run \`npm start\` once to create the dev project`
        : `No ${kind} key for ${endpoint}: pass --${kind}-key (or set RF_${kind.toUpperCase()}_KEY); the dev project's keys are for the local collector alone`,
    );
  return { key, given: given !== undefined };
}
