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
