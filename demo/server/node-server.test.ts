import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { serve } from './node-server.ts';

/** GET `path` over `agent`: its status, or 'refused' when the connection fails. */
const get = (url: string, path: string, agent: http.Agent) =>
  new Promise<number | 'refused'>((resolve) => {
    http
      .get(`${url}${path}`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
      .on('error', () => resolve('refused'));
  });

describe('the demo server closing', () => {
  it('takes no new request on a kept-alive connection an answer finishing while it closes left open', async () => {
    const gates = new Map<string, () => void>();
    const server = await serve(
      async (request) => {
        const path = new URL(request.url).pathname;
        if (path !== '/fast') await new Promise<void>((r) => gates.set(path, r));
        return new Response('ok');
      },
      { port: 0, host: '127.0.0.1' },
    );
    // One connection each: an answer that hangs past the test, and one that finishes while closing.
    const hung = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    void get(server.url, '/hang', hung);
    const slow = get(server.url, '/slow', agent);
    await expect.poll(() => gates.size).toBe(2);
    const closed = server.close();
    gates.get('/slow')!();
    expect(await slow).toBe(200);
    expect(await get(server.url, '/fast', agent)).toBe('refused');
    gates.get('/hang')!();
    await closed;
    hung.destroy();
    agent.destroy();
  });
});

/** What the server answers to `method path`, sent as written: its status and body. */
const send = (url: string, method: string, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .request(url, { method, path }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
      .on('error', reject)
      .end();
  });

describe('the demo server', () => {
  it('refuses a request no web Request can carry (a method fetch forbids, a target that is no URL) with a 4xx naming what, in the error shape', async () => {
    const server = await serve(() => new Response('ok'), { port: 0, host: '127.0.0.1' });
    try {
      const trace = await send(server.url, 'TRACE', '/');
      expect(trace.status).toBe(405);
      expect(JSON.parse(trace.body)).toEqual({ error: { code: 'method_not_allowed', message: 'TRACE is not served', field: 'method' } });
      const target = await send(server.url, 'GET', 'http://[');
      expect(target.status).toBe(400);
      expect(JSON.parse(target.body)).toEqual({
        error: {
          code: 'invalid_url',
          message: 'The request target is not a URL',
          field: 'path',
          fields: [{ field: 'path', message: 'The request target is not a URL' }],
        },
      });
      // The server goes on answering.
      expect(await send(server.url, 'GET', '/')).toEqual({ status: 200, body: 'ok' });
    } finally {
      await server.close();
    }
  });
});
