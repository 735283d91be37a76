import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.ts';

export interface JsonBodyOptions {
  /** Largest body accepted, in bytes (413 above). */
  maxBytes: number;
  /** Media types accepted; `text/plain` lets navigator.sendBeacon post without a preflight. */
  contentTypes: readonly string[];
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The parsed JSON body, set by `jsonBody`. */
    body: unknown;
  }
}

/** Checks media type and size, then parses JSON; every failure names the part of the request at fault. */
export const jsonBody = ({ maxBytes, contentTypes }: JsonBodyOptions): MiddlewareHandler =>
  async function jsonBody(c, next) {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!contentTypes.includes(type)) {
      throw new ApiError(415, 'unsupported_media_type', `Content-Type must be one of: ${contentTypes.join(', ')}`, 'content-type');
    }
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > maxBytes) throw tooLarge(maxBytes);
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes));
    } catch {
      throw new ApiError(400, 'invalid_json', 'The body is not valid UTF-8 JSON', 'body');
    }
    c.set('body', body);
    await next();
  };

const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'payload_too_large', `The body is larger than ${maxBytes} bytes`, 'body');
