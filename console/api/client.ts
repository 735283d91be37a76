import { listedFields } from '../../shared/listed-fields.ts';
import type { FieldError } from '../../shared/validation.ts';
import { adminKey } from '../app/admin-key.ts';

/** An answer other than 2xx, with the API's error shape read out. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The request's field or parameter the API named as the one it refused. */
    readonly field?: string,
    /** Every field the API named as at fault (a body or query string checked whole), the first of them `field`. */
    readonly fields: readonly FieldError[] = field === undefined ? [] : [{ field, message }],
  ) {
    super(message);
  }
}

/** The API's `fields` as far as they are well formed; a collector that names `field` alone gives that one. */
function fieldsOf(error: { field?: unknown; message?: unknown; fields?: unknown } | undefined): FieldError[] | undefined {
  const named = listedFields(error?.fields);
  return named.length ? named : undefined;
}

/** The collector could not be reached at all. */
export class NetworkError extends Error {}

/** Raised once per 401 so the console can show its signed-out page, whatever asked. */
export const UNAUTHORIZED_EVENT = 'rf-unauthorized';

interface ApiInit {
  method?: string;
  json?: unknown;
  key?: string;
  /** The ETag the data was read with: a save is refused (412) if it changed since. */
  ifMatch?: string;
  /** Past this a request fails as unreachable (a read: READ_TIMEOUT_MS, then asked once more; a write: WRITE_TIMEOUT_MS, never again). */
  timeoutMs?: number;
}

/** A read unanswered this long is taken as lost (a dev server drops one now and then) and asked once more. */
export const READ_TIMEOUT_MS = 10_000;
/**
 * A write unanswered this long fails as unreachable rather than leaving its page waiting for minutes
 * on a proxy that never answers. It is not sent again: it may have been carried out.
 */
export const WRITE_TIMEOUT_MS = 15_000;

/** A read the collector did not answer in time. */
class Unanswered extends NetworkError {}

/**
 * Calls the admin API on this origin with the admin key in the Authorization header: never in a
 * URL, so it reaches no log or history. A 401 tells the console (UNAUTHORIZED_EVENT) and throws.
 * A read left unanswered is asked once more before it fails; a write left unanswered fails and is
 * never sent again; a refused connection fails at once.
 */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  return (await versioned<T>(path, init)).body;
}

/** As `api`, with the answer's ETag: the version to send back as `ifMatch` when saving what was read. */
export async function versioned<T>(path: string, init: ApiInit = {}): Promise<{ body: T; etag: string | null }> {
  if ((init.method ?? 'GET') !== 'GET') return send<T>(path, { ...init, timeoutMs: init.timeoutMs ?? WRITE_TIMEOUT_MS });
  if (init.timeoutMs !== undefined) return send<T>(path, init);
  try {
    return await send<T>(path, { ...init, timeoutMs: READ_TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof Unanswered)) throw err;
    return send<T>(path, { ...init, timeoutMs: READ_TIMEOUT_MS });
  }
}

async function send<T>(path: string, init: ApiInit): Promise<{ body: T; etag: string | null }> {
  const key = init.key ?? adminKey();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.ifMatch !== undefined) headers['if-match'] = init.ifMatch;
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      credentials: 'omit',
      cache: 'no-store',
      // A request left unanswered past this fails as unreachable, so its caller can ask again.
      ...(init.timeoutMs !== undefined && { signal: AbortSignal.timeout(init.timeoutMs) }),
    });
  } catch (err) {
    throw err instanceof DOMException && err.name === 'TimeoutError' ? new Unanswered('timeout') : new NetworkError('network');
  }
  if (res.ok) return { body: (await res.json()) as T, etag: res.headers.get('etag') };
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string; field?: string; fields?: unknown } } | null;
  const message = body?.error?.message ?? res.statusText;
  const error = new ApiRequestError(res.status, body?.error?.code ?? 'http_error', message, body?.error?.field, fieldsOf(body?.error));
  // A key being tried at sign-in is not a session ending, nor is a refusal of a key since signed out of.
  if (res.status === 401 && init.key === undefined && key !== null && key === adminKey()) window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  throw error;
}
