import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one error shape of the API: `{ "error": { "code", "message", "field" } }`. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** An error a client can act on; `field` names the part of the request that is wrong. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(status, { message });
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
