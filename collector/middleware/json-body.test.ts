import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../env.ts';
import { handleError } from '../errors.ts';
import { jsonBody } from './json-body.ts';

const MAX = 64;
const app = new Hono<AppEnv>()
  .post('/', jsonBody({ maxBytes: MAX, contentTypes: ['application/json', 'text/plain'] }), (c) => c.json({ parsed: c.get('body') }))
  .onError(handleError);

const post = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) => app.request('/', { method: 'POST', headers, body });

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; field: string } }).error;

/** A body far over the limit, sent in small chunks, counting the bytes it was asked for. */
function largeStream(total = 64 * MAX, chunk = 16) {
  const read = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (read.bytes >= total) return controller.close();
      read.bytes += chunk;
      controller.enqueue(new TextEncoder().encode(' '.repeat(chunk)));
    },
  });
  return { stream, read };
}

describe('jsonBody', () => {
  it('reads UTF-8 alone: a body said to be in another charset is a 415 naming the content type', async () => {
    for (const type of ['application/json; charset=utf-16', 'text/plain;charset="ISO-8859-1"']) {
      const res = await post('{"a":1}', { 'content-type': type });
      expect(res.status).toBe(415);
      expect(await errorOf(res)).toMatchObject({ code: 'unsupported_media_type', field: 'content-type' });
    }
    // As sendBeacon and fetch say it.
    for (const type of ['text/plain;charset=UTF-8', 'application/json; charset=utf-8', 'application/json;charset=utf8'])
      expect(await (await post('{"a":1}', { 'content-type': type })).json()).toEqual({ parsed: { a: 1 } });
  });

  it('reads no body at all as {} where every field is optional, and only there', async () => {
    const optional = new Hono<AppEnv>()
      .post('/', jsonBody({ maxBytes: MAX, contentTypes: ['application/json'], optional: true }), (c) => c.json({ parsed: c.get('body') }))
      .onError(handleError);
    expect(await (await optional.request('/', { method: 'POST' })).json()).toEqual({ parsed: {} });
    // fetch() with no body sends Content-Length: 0; a client may name the media type anyway.
    expect(await (await optional.request('/', { method: 'POST', headers: { 'content-length': '0' }, body: '' })).json()).toEqual({ parsed: {} });
    expect(await (await optional.request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' })).json()).toEqual({ parsed: {} });
    expect((await optional.request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })).status).toBe(400);
    expect(await (await optional.request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).json()).toEqual({
      parsed: { a: 1 },
    });
    expect((await optional.request('/', { method: 'POST', body: new Blob(['{}']) })).status).toBe(415);
    expect((await app.request('/', { method: 'POST' })).status).toBe(415);
  });

  it('parses JSON sent as application/json or text/plain (with a charset)', async () => {
    expect(await (await post('{"a":[1,"二"]}')).json()).toEqual({ parsed: { a: [1, '二'] } });
    expect(await (await post('[true]', { 'content-type': 'text/plain;charset=UTF-8' })).json()).toEqual({ parsed: [true] });
  });

  it('refuses another media type with 415 before looking at the size', async () => {
    const res = await post('<a/>'.repeat(100), { 'content-type': 'application/xml' });
    expect(res.status).toBe(415);
    expect(await errorOf(res)).toMatchObject({ code: 'unsupported_media_type', field: 'content-type' });
    // A string body would get text/plain from the Request itself; a Blob without a type gets none.
    expect((await post(new Blob(['{}']), {})).status).toBe(415);
  });

  it('refuses a body over the limit with 413, and takes one exactly at it', async () => {
    const res = await post(JSON.stringify('x'.repeat(MAX)));
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'payload_too_large', field: 'body' });
    expect((await post(JSON.stringify('x'.repeat(MAX - 2)))).status).toBe(200);
  });

  it('cuts a streamed body without Content-Length off at the limit instead of reading it whole', async () => {
    const { stream, read } = largeStream();
    const res = await post(stream);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatchObject({ code: 'payload_too_large', field: 'body' });
    expect(read.bytes).toBeGreaterThan(MAX);
    expect(read.bytes).toBeLessThanOrEqual(MAX + 3 * 16);
  });

  it('parses a streamed body within the limit', async () => {
    const json = new TextEncoder().encode('{"streamed":true}');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(json.slice(0, 5));
        controller.enqueue(json.slice(5));
        controller.close();
      },
    });
    expect(await (await post(stream)).json()).toEqual({ parsed: { streamed: true } });
  });

  it.each([
    ['not JSON', '{"a":'],
    ['empty', ''],
    ['invalid UTF-8', new Uint8Array([0x22, 0xff, 0x22])],
  ])('answers a body that is %s with 400 naming the body in field and fields', async (_, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const message = 'The body is not valid UTF-8 JSON';
    expect(await errorOf(res)).toEqual({ code: 'invalid_json', message, field: 'body', fields: [{ field: 'body', message }] });
  });
});
