/**
 * An endpoint that redirects (http to https, an old host name), through Node's real fetch: were
 * the redirect followed, the key would be dropped on the way to the other origin and a POST turned
 * into a GET, and the collector's answer ("needs a server key", "answers POST, not GET") would
 * blame what the backend sent right. The client names the redirect instead, and follows none.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReranker, createTraceClient } from './index.ts';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

/** Where the redirect points: a stand-in collector that only records what reaches it. */
const reached: { method?: string; url?: string; authorization?: string }[] = [];
const target = createServer((req: IncomingMessage, res) => {
  reached.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
  res.writeHead(401, { 'content-type': 'application/json' });
  res.end('{"error":{"code":"unauthorized","message":"This endpoint needs a server key in Authorization or X-Api-Key"}}');
});
let targetUrl: string;
let endpoint: string;
const redirector = createServer((req, res) => {
  // The reranker's path redirects within the host, as a relative Location.
  res.writeHead(301, { location: req.url?.includes('reranker') ? `/moved${req.url}` : `${targetUrl}${req.url}` });
  res.end();
});

beforeAll(async () => {
  targetUrl = await listen(target);
  endpoint = await listen(redirector);
});
afterAll(async () => {
  await new Promise((r) => target.close(r));
  await new Promise((r) => redirector.close(r));
});

describe('an endpoint that redirects', () => {
  it('fails a trace naming where the endpoint redirects to, and sends nothing there', async () => {
    reached.length = 0;
    const client = createTraceClient({ endpoint, serverKey: 'rfs_redirect_test', maxAttempts: 2, backoff: { baseMs: 1, maxMs: 5 } });
    const result = client.logTrace({
      traceId: '01a244ff-7359-71d8-8816-ac769f1f02f6',
      query: 'q',
      retrievedChunks: [],
      answer: 'a',
      model: 'm',
      sessionId: 's',
      createdAt: Date.now(),
    });
    await client.flush();
    expect(await result).toEqual({
      traceId: '01a244ff-7359-71d8-8816-ac769f1f02f6',
      status: 'failed',
      reason: `HTTP 301 from ${endpoint}/v1/traces, a redirect to ${targetUrl}/v1/traces: set endpoint to where it points`,
    });
    expect(reached).toEqual([]);
  });

  it("keeps retrieval's order, telling onError where the endpoint redirects to, in full", async () => {
    const errors: string[] = [];
    const reranker = createReranker({ endpoint, serverKey: 'rfs_redirect_test', onError: (e) => errors.push(e.message) });
    const ranked = await reranker.rerank('q', [{ chunkId: 'a', text: 'x' }]);
    expect(ranked.map((r) => r.rerankerVersion)).toEqual([undefined]);
    expect(errors).toEqual([`GET /v1/reranker answered 301, a redirect to ${endpoint}/moved/v1/reranker: set endpoint to where it points`]);
  });
});
