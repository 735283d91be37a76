import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one error shape of the API: `{ "error": { "code", "message", "field" } }`. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

export interface ApiErrorOptions {
  /** Stable and machine-readable, e.g. `invalid_event`. */
  code: string;
  /** What went wrong, for the developer reading the response. */
  message: string;
  /** The part of the request at fault: `body`, `key`, `events[3].detail.stars`, … */
  field?: string;
  /** Headers the response needs, e.g. `Retry-After` on a 429. */
  headers?: Record<string, string>;
}

/** An error a client can act on: thrown anywhere, answered by `handleError`. */
export class ApiError extends HTTPException {
  readonly code: string;
  readonly field?: string;
  readonly headers?: Record<string, string>;

  constructor(status: ContentfulStatusCode, { code, message, field, headers }: ApiErrorOptions) {
    super(status, { message });
    this.code = code;
    this.field = field;
    this.headers = headers;
  }
}

export const errorBody = (code: string, message: string, field?: string): ErrorBody => ({
  error: field === undefined ? { code, message } : { code, message, field },
});

/** `app.onError`: ApiErrors as they are, anything else as a 500 that leaks nothing. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.code, err.message, err.field), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    return c.json(errorBody('http_error', err.message), err.status);
  }
  console.error('unhandled error', err);
  return c.json(errorBody('internal', 'Internal error'), 500);
}
