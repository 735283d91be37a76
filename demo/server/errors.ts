import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorBody } from '../../shared/error-body.ts';
import type { FieldError, FieldErrors } from '../../shared/validation.ts';

/** A request the demo refuses, in the collector's error shape: `{ error: { code, message, field, fields } }`. */
export class DemoError extends HTTPException {
  /** A 400 names every field at fault: `DemoError.fields` builds it. */
  constructor(status: Exclude<ContentfulStatusCode, 400>, code: string, message: string, field: string);
  constructor(status: 400, code: string, message: string, field: string, fields: FieldErrors);
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly field: string,
    /** Every part at fault when a body is checked, the first of them `field`: all fixed in one round. */
    readonly fields?: readonly FieldError[],
  ) {
    super(status, { message });
  }

  /** A 400 naming every field at fault (one at least), the first as `field` and `message`. */
  static fields(code: string, fields: FieldErrors): DemoError {
    const [first] = fields;
    return new DemoError(400, code, first.message, first.field, fields);
  }
}

/** `app.onError`: refusals as they are, anything else a 500 that leaks nothing. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof DemoError) return c.json(errorBody(err.code, err.message, err.field, err.fields), err.status);
  if (err instanceof HTTPException) return c.json(errorBody('http_error', err.message), err.status);
  console.error('demo: unhandled error', err);
  return c.json(errorBody('internal', 'Internal error'), 500);
}

/** The JSON body of a request: media type, size and syntax checked, each failure naming its part. */
export async function jsonBodyOf(c: Context, maxBytes: number): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new DemoError(415, 'unsupported_media_type', 'Content-Type must be application/json', 'content-type');
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > maxBytes) throw new DemoError(413, 'payload_too_large', `The body is larger than ${maxBytes} bytes`, 'body');
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw DemoError.fields('invalid_json', [{ field: 'body', message: 'The body is not valid UTF-8 JSON' }]);
  }
}
