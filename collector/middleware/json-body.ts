import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env.ts';
import { ApiError, type Checked, checkedValue } from '../errors.ts';

export interface JsonBodyOptions {
  /** Largest body accepted, in bytes (413 above). */
  maxBytes: number;
  /** Media types accepted; `text/plain` lets navigator.sendBeacon post without a preflight. */
  contentTypes: readonly string[];
  /** Whether a request may send no body at all (every field optional): it reads as `{}`. */
  optional?: boolean;
}

const mediaType = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();
/** A charset the header names other than UTF-8, which is all the body is read as. */
const otherCharset = (header: string | undefined) => {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header ?? '')?.[1]?.toLowerCase();
  return charset !== undefined && charset !== 'utf-8' && charset !== 'utf8' ? charset : undefined;
};

/**
 * Checks the media type and reads the body no further than `maxBytes`: the body parsed as JSON, or
 * the fault that it is not; a body too large or of another media type throws (413, 415). The size
 * is checked by hono's bodyLimit: from Content-Length when sent, else while the body streams in, so
 * a chunked body is cut off at the limit instead of being read whole first.
 */
export const jsonReader = ({ maxBytes, contentTypes, optional = false }: JsonBodyOptions): ((c: Context) => Promise<Checked<unknown>>) => {
  const tooLarge = (): never => {
    throw new ApiError(413, { code: 'payload_too_large', message: `The body is larger than ${maxBytes} bytes`, field: 'body' });
  };
  const limit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  const wrongType = (): never => {
    throw new ApiError(415, { code: 'unsupported_media_type', message: `Content-Type must be one of: ${contentTypes.join(', ')}`, field: 'content-type' });
  };
  return async function readJson(c) {
    const header = c.req.header('content-type');
    const typed = contentTypes.includes(mediaType(header));
    const charset = otherCharset(header);
    if (typed && charset) throw new ApiError(415, { code: 'unsupported_media_type', message: `The body must be UTF-8, not ${charset}`, field: 'content-type' });
    // An optional body may be left out whatever the media type says (`curl -X POST`, `fetch` with no body).
    if (!typed && !optional) wrongType();
    let read: Checked<unknown> | undefined;
    await limit(c, async () => {
      const bytes = await c.req.arrayBuffer();
      // bodyLimit takes a Content-Length at its word; a caller inside the isolate could understate it.
      if (bytes.byteLength > maxBytes) tooLarge();
      if (optional && bytes.byteLength === 0) return void (read = { ok: true, value: {} });
      if (!typed) wrongType();
      read = parseJson(bytes);
    });
    return read!;
  };
};

/** Reads the body as `jsonReader` does into `c.var.body`; a body that is not JSON is a 400 naming it. */
export const jsonBody = (options: JsonBodyOptions): MiddlewareHandler<AppEnv> => {
  const readJson = jsonReader(options);
  return async function jsonBody(c, next) {
    c.set('body', checkedValue(await readJson(c)));
    await next();
  };
};

function parseJson(bytes: ArrayBuffer): Checked<unknown> {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)) };
  } catch {
    return { ok: false, code: 'invalid_json', fields: [{ field: 'body', message: 'The body is not valid UTF-8 JSON' }] };
  }
}
