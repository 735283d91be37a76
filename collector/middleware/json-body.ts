import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';

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
 * Checks the media type, reads the body no further than `maxBytes` and parses it as JSON into
 * `c.var.body`; every failure names the part of the request at fault. The size is checked by
 * hono's bodyLimit: from Content-Length when sent, else while the body streams in, so a chunked
 * body is cut off at the limit instead of being read whole first.
 */
export const jsonBody = ({ maxBytes, contentTypes, optional = false }: JsonBodyOptions): MiddlewareHandler<AppEnv> => {
  const tooLarge = (): never => {
    throw new ApiError(413, { code: 'payload_too_large', message: `The body is larger than ${maxBytes} bytes`, field: 'body' });
  };
  const limit = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  const wrongType = (): never => {
    throw new ApiError(415, { code: 'unsupported_media_type', message: `Content-Type must be one of: ${contentTypes.join(', ')}`, field: 'content-type' });
  };
  return async function jsonBody(c, next) {
    const header = c.req.header('content-type');
    const typed = contentTypes.includes(mediaType(header));
    const charset = otherCharset(header);
    if (typed && charset) throw new ApiError(415, { code: 'unsupported_media_type', message: `The body must be UTF-8, not ${charset}`, field: 'content-type' });
    // An optional body may be left out whatever the media type says (`curl -X POST`, `fetch` with no body).
    if (!typed && !optional) wrongType();
    await limit(c, async () => {
      const bytes = await c.req.arrayBuffer();
      // bodyLimit takes a Content-Length at its word; a caller inside the isolate could understate it.
      if (bytes.byteLength > maxBytes) tooLarge();
      if (optional && bytes.byteLength === 0) return void c.set('body', {});
      if (!typed) wrongType();
      c.set('body', parseJson(bytes));
    });
    await next();
  };
};

function parseJson(bytes: ArrayBuffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    throw ApiError.fields('invalid_json', [{ field: 'body', message: 'The body is not valid UTF-8 JSON' }]);
  }
}
