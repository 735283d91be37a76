import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody } from '../shared/error-body.ts';
import type { FieldError, FieldErrors } from '../shared/validation.ts';

export interface ApiErrorOptions {
  /** Stable and machine-readable, e.g. `invalid_event`. */
  code: string;
  /** What went wrong, for the developer reading the response. */
  message: string;
  /** The part of the request at fault: `body`, `key`, `events[3].detail.stars`, … */
  field?: string;
  /** Every part at fault when a body, query string or URL is checked, the first of them `field`: all fixed in one round. */
  fields?: readonly FieldError[];
  /** Headers the response needs, e.g. `Retry-After` on a 429. */
  headers?: Record<string, string>;
}

/** An error a client can act on: thrown anywhere, answered by `handleError`. */
export class ApiError extends HTTPException {
  readonly code: string;
  readonly field?: string;
  readonly fields?: readonly FieldError[];
  readonly headers?: Record<string, string>;

  /** A 400 names every field at fault: `ApiError.fields` builds it. */
  constructor(status: Exclude<ContentfulStatusCode, 400>, options: ApiErrorOptions);
  constructor(status: 400, options: ApiErrorOptions & { fields: FieldErrors });
  constructor(status: ContentfulStatusCode, { code, message, field, fields, headers }: ApiErrorOptions) {
    super(status, { message });
    this.code = code;
    this.field = field;
    this.fields = fields;
    this.headers = headers;
  }

  /** A 400 naming every field at fault (one at least), the first as `field` and `message`. */
  static fields(code: string, fields: FieldErrors): ApiError {
    return new ApiError(400, { code, ...fields[0], fields });
  }
}

/** What a check of a part of the request read, or every field at fault there and the code of the 400 naming them. */
export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; fields: FieldErrors };

/** The value a check read, or its 400 thrown. */
export function checkedValue<T>(checked: Checked<T>): T {
  if (!checked.ok) throw ApiError.fields(checked.code, checked.fields);
  return checked.value;
}

/** `app.onError`: ApiErrors as they are, anything else as a 500 that leaks nothing. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(errorBody(err.code, err.message, err.field, err.fields), err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    return c.json(errorBody('http_error', err.message), err.status);
  }
  console.error('unhandled error', err);
  return c.json(errorBody('internal', 'Internal error'), 500);
}
