/**
 * The admin API as the command-line tools call it: the collector's URL and the admin key, from
 * flags, else RF_ENDPOINT / RF_ADMIN_KEY, else the local dev project `npm start` created.
 */
import { collectorJson, fetchCollector } from './cli.ts';
import { collectorEndpoint, projectKey } from './collector-target.ts';
import type { CollectorChoice } from './next-command.ts';

export interface AdminTarget {
  endpoint: string;
  adminKey: string;
}

/** The collector and admin key the flags choose, and whether the key was given (for the command to run next). */
export function adminTarget(flags: { endpoint?: string; 'admin-key'?: string }): AdminTarget & CollectorChoice {
  const endpoint = collectorEndpoint(flags.endpoint);
  const { key, given } = projectKey('admin', endpoint, flags['admin-key']);
  return { endpoint, adminKey: key, keyGiven: given };
}

/** A non-2xx answer of the admin API, with the collector's error code and message. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    /** The collector's own words (or the body, from a proxy in between). */
    readonly detail: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls `/v1/admin<path>`; a non-2xx answer throws an AdminApiError. */
export async function admin<T>(target: AdminTarget, path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await fetchCollector(`${target.endpoint}/v1/admin${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${target.adminKey}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  if (!res.ok) {
    const error = errorOf(text);
    const hint = res.status === 401 ? ` (the admin key was refused: check --admin-key or RF_ADMIN_KEY)` : '';
    const detail = error?.message ?? text;
    throw new AdminApiError(res.status, error?.code, detail, `${init.method ?? 'GET'} /v1/admin${path} answered ${res.status}: ${detail}${hint}`);
  }
  return collectorJson<T>(res, text, `${init.method ?? 'GET'} /v1/admin${path}`);
}

/** The collector's error body, if the answer is one (a proxy in between may answer with HTML). */
function errorOf(text: string): { code?: string; message?: string } | undefined {
  try {
    return (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
  } catch {
    return undefined;
  }
}
