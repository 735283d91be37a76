import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { type Generator, startDemo } from './index.ts';

/** A stand-in collector that stores what `POST /v1/traces` receives and accepts it, and has no model to serve. */
const received: { auth: string | undefined; traces: TraceInput[] }[] = [];
const modelAsks: (string | undefined)[] = [];
const collector = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/reranker') {
    modelAsks.push(req.headers.authorization);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: 'no_model', message: 'No model is served (none promoted, or the last one rolled back): rank in retrieval order', field: 'version' },
      }),
    );
    return;
  }
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    const traces = JSON.parse(body) as TraceInput[];
    received.push({ auth: req.headers.authorization, traces });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ accepted: traces.length, duplicate: 0, rejected: 0, results: traces.map((t, index) => ({ index, id: t.traceId, status: 'accepted' })) }),
    );
  });
});
let collectorUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => collector.close(() => r())));

describe('startDemo', () => {
  it('serves the page, its script and the widget, answers, and sends the trace with the server key before closing', async () => {
    const demo = await startDemo({ port: 0, collectorUrl, serverKey: 'rfs_test', writeKey: 'rfw_test', log: () => {} });
    try {
      expect(demo.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await (await fetch(demo.url)).text()).toContain('<script type="module" src="/app.js">');
      const script = await (await fetch(`${demo.url}/app.js`)).text();
      expect(script).toContain('/widget/rag-feedback.js');
      expect((await fetch(`${demo.url}/widget/rag-feedback.js`)).status).toBe(200);
      expect(await (await fetch(`${demo.url}/api/config`)).json()).toMatchObject({
        endpoint: collectorUrl,
        writeKey: 'rfw_test',
        consoleUrl: `${collectorUrl}/admin`,
      });
      const res = await fetch(`${demo.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 's-1', query: 'How do I deploy to Cloudflare?', turnIndex: 0 }),
      });
      const { traceId } = (await res.json()) as { traceId: string };
      await demo.close();
      const sent = received.flatMap((r) => r.traces.map((t) => ({ auth: r.auth, t })));
      expect(sent.map((s) => s.t.traceId)).toEqual([traceId]);
      expect(sent[0]!.auth).toBe('Bearer rfs_test');
      expect(sent[0]!.t).toMatchObject({ sessionId: 's-1', turnIndex: 0, model: 'demo-extractive' });
      // It asked for the promoted model with the server key; with none, retrieval's order and no version.
      expect(modelAsks).toEqual(['Bearer rfs_test']);
      expect(sent[0]!.t.rerankerVersion).toBeUndefined();
    } finally {
      await demo.close();
    }
  });

  it('stops within its close timeout when the collector takes no trace, saying which traces were not stored', async () => {
    // A collector that takes connections and never answers.
    const hung = createServer(() => {});
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const logged: string[] = [];
    const demo = await startDemo({
      port: 0,
      collectorUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
      serverKey: 'rfs_test',
      log: (m) => logged.push(m),
      closeTimeoutMs: 1_000,
    });
    try {
      const res = await fetch(`${demo.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 's-hung', query: 'How do I deploy to Cloudflare?', turnIndex: 0 }),
      });
      const { traceId } = (await res.json()) as { traceId: string };
      // Without a limit, the client's retries would hold the close for over a minute, past the test's timeout.
      await demo.close();
      expect(logged).toContainEqual(expect.stringContaining(`trace ${traceId} not stored`));
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((r) => hung.close(() => r()));
    }
  });

  it('lets an answer on its way when it is closed finish, and sends its trace, before it stops', async () => {
    let answering: (() => void) | undefined;
    const asked = new Promise<void>((started) => {
      answering = started;
    });
    let finish = () => {};
    // A language model slow to answer: the request is on its way while the demo closes.
    const generator: Generator = {
      model: 'slow-llm',
      generate: () => {
        answering?.();
        return new Promise((resolve) => {
          finish = () => resolve({ answer: 'Deploy with wrangler [1].', citations: [], prompt: 'p' });
        });
      },
    };
    const demo = await startDemo({ port: 0, collectorUrl, serverKey: 'rfs_test', generator, log: () => {} });
    const before = received.length;
    const response = fetch(`${demo.url}/api/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 's-closing', query: 'How do I deploy to Cloudflare?', turnIndex: 0 }),
    });
    await asked;
    const closed = demo.close();
    // No new request is taken while it closes.
    await expect(fetch(`${demo.url}/api/config`)).rejects.toThrow();
    finish();
    const res = await response;
    expect(res.status).toBe(200);
    const { traceId } = (await res.json()) as { traceId: string };
    await closed;
    expect(received.slice(before).flatMap((r) => r.traces.map((t) => t.traceId))).toEqual([traceId]);
  });

  it('stops serving on close', async () => {
    const demo = await startDemo({ port: 0, log: () => {} });
    await demo.close();
    await expect(fetch(`${demo.url}/api/config`)).rejects.toThrow();
  });
});
