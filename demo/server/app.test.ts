import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { loadDocs } from '../corpus/docs.ts';
import { createAnswerer } from './answerer.ts';
import { type ClientConfig, createDemoApp } from './app.ts';
import { MAX_ASK_BYTES } from './ask-schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'demo-app-'));
const widgetDir = join(dir, 'widget');
mkdirSync(join(widgetDir, 'chunks'), { recursive: true });
writeFileSync(join(widgetDir, 'rag-feedback.js'), 'export const RagFeedback = {};');
writeFileSync(join(widgetDir, 'chunks', 'x.js'), '// chunk');
writeFileSync(join(dir, 'secret.js'), '// outside the widget');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config: ClientConfig = {
  endpoint: 'http://127.0.0.1:8787',
  writeKey: 'rfw_test',
  consoleUrl: 'http://127.0.0.1:8787/admin',
  corpus: { name: 'docs', chunks: 1, examples: ['What is it?'] },
};
const app = createDemoApp({
  answerer: createAnswerer({ corpus: loadDocs() }),
  config,
  assets: { html: '<!doctype html><title>demo</title>', script: 'console.log(1)', style: 'body{}', widgetDir },
});
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  app.request('/api/ask', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('demo routes', () => {
  it('serves the page under a CSP that lets it reach only itself and the collector', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>demo</title>');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:8787");
    expect((await app.request('/app.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('gives the page its settings', async () => {
    expect(await (await app.request('/api/config')).json()).toEqual(config);
  });

  it("serves the widget's build and nothing beside it", async () => {
    expect(await (await app.request('/widget/rag-feedback.js')).text()).toContain('RagFeedback');
    expect((await app.request('/widget/chunks/x.js')).status).toBe(200);
    expect((await app.request('/widget/..%2Fsecret.js')).status).toBe(404);
    expect((await app.request('/widget/missing.js')).status).toBe(404);
    expect((await app.request('/widget/rag-feedback.ts')).status).toBe(404);
    // A malformed escape: refused as not found, in the demo's error shape, never a 500.
    const malformed = await app.request('/widget/%E0%A4.js');
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), field: 'path' } });
  });

  it('answers a question with its trace id and numbered citations', async () => {
    const res = await post({ sessionId: 's-1', query: 'How are rate limits configured?', turnIndex: 0 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { traceId: string; answer: string; citations: { n: number; chunkId: string }[] };
    expect(body.traceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.citations[0]).toMatchObject({ n: 1, chunkId: expect.stringMatching(/^README\.md#/) });
    expect(body.answer).toContain('[1]');
  });

  it('refuses a regenerate of an answer it no longer holds (it restarted, say) with a 409 naming regenerateOf', async () => {
    const regenerateOf = '01890a5d-ac96-774b-bcce-b302099a8057';
    const res = await post({ sessionId: 's-1', query: 'How are rate limits configured?', turnIndex: 0, regenerateOf });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: { code: 'regenerate_unknown', message: expect.stringContaining('ask the question again'), field: 'regenerateOf' },
    });
  });

  it('names every field at fault in a body, the first as field and message, as the collector does', async () => {
    const res = await post({ sessionId: 'has spaces', query: '   ', turnIndex: -1, turn: 1 });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; field: string; message: string; fields: { field: string; message: string }[] } };
    expect(error.code).toBe('invalid_request');
    expect(error.fields.map((f) => f.field).sort()).toEqual(['query', 'sessionId', 'turn', 'turnIndex']);
    expect(error.fields.every((f) => f.message.length > 0)).toBe(true);
    expect(error.fields[0]).toEqual({ field: error.field, message: error.message });
  });

  it('takes the longest question the schema allows, however many bytes its characters take', async () => {
    const sessionId = 's-'.padEnd(128, 'x');
    // CJK: 3 bytes a character in UTF-8. Read whole: refused only for the answer it would regenerate, which the demo never gave.
    const longest = await post({ sessionId, query: '退'.repeat(MAX_QUERY_CHARS), turnIndex: 10_000, regenerateOf: sessionId });
    expect(longest.status).toBe(409);
    expect(((await longest.json()) as { error: { field: string } }).error.field).toBe('regenerateOf');
    expect((await post({ sessionId, query: '退'.repeat(MAX_QUERY_CHARS), turnIndex: 10_000 })).status).toBe(200);
    // A control character: 6 bytes a character once JSON escapes it.
    expect((await post({ sessionId, query: `x${'\u0001'.repeat(MAX_QUERY_CHARS - 1)}`, turnIndex: 10_000 })).status).toBe(200);
  });

  it('refuses bad requests, naming the field at fault', async () => {
    const bad = async (res: Response) => ({ status: res.status, field: ((await res.json()) as { error: { field?: string } }).error.field });
    expect(await bad(await post({ sessionId: 's-1', query: '   ', turnIndex: 0 }))).toEqual({ status: 400, field: 'query' });
    // Half of a character: the collector would refuse the trace, so the question gets no answer either.
    expect(await bad(await post({ sessionId: 's-1', query: 'widget \ud800 x', turnIndex: 0 }))).toEqual({ status: 400, field: 'query' });
    expect(await bad(await post({ sessionId: 's-1', query: 'q', turnIndex: 0, turn: 1 }))).toEqual({ status: 400, field: 'turn' });
    expect(await bad(await post({ sessionId: 'has spaces', query: 'q', turnIndex: 0 }))).toEqual({ status: 400, field: 'sessionId' });
    expect(await bad(await post({ sessionId: 's', query: 'q', turnIndex: -1 }))).toEqual({ status: 400, field: 'turnIndex' });
    const notJson = await post('{not json');
    const message = 'The body is not valid UTF-8 JSON';
    expect(await notJson.json()).toEqual({ error: { code: 'invalid_json', message, field: 'body', fields: [{ field: 'body', message }] } });
    expect(notJson.status).toBe(400);
    // A list where the question belongs is named as the body, not read as an object missing its sessionId.
    for (const list of [[], [{ sessionId: 's', query: 'q', turnIndex: 0 }]]) {
      const res = await post(list);
      const message = 'The body must be a JSON object, not an array';
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message, field: 'body', fields: [{ field: 'body', message }] } });
      expect(res.status).toBe(400);
    }
    expect(await bad(await post({ sessionId: 's', query: 'q', turnIndex: 0 }, { 'content-type': 'text/plain' }))).toEqual({
      status: 415,
      field: 'content-type',
    });
    expect(await bad(await post({ sessionId: 's', query: 'q'.repeat(MAX_QUERY_CHARS + 1), turnIndex: 0 }))).toEqual({ status: 400, field: 'query' });
    expect(await bad(await post({ sessionId: 's', query: 'q'.repeat(MAX_ASK_BYTES), turnIndex: 0 }))).toEqual({ status: 413, field: 'body' });
    expect((await app.request('/nothing')).status).toBe(404);
    // A path that answers another method names the method, with what it takes, as the collector does.
    const get = await app.request('/api/ask');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toEqual({ error: { code: 'method_not_allowed', message: '/api/ask answers POST, not GET', field: 'method' } });
  });
});
