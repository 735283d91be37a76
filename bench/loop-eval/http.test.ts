import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectorFetch } from './http.ts';

describe('collectorFetch', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
    vi.restoreAllMocks();
  });

  it('asks again when the body stalls after the headers, and returns the whole answer', async () => {
    let requests = 0;
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      // The first answer sends its headers and part of its body, then nothing more.
      if (requests === 1) res.write('{"part');
      else res.end('{"whole":true}');
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const answer = await collectorFetch(`http://127.0.0.1:${port}/v1/admin/training-data`, {}, 300);
    expect(answer).toEqual({ status: 200, ok: true, text: '{"whole":true}' });
    expect(requests).toBe(2);
    expect(warn).toHaveBeenCalledWith('GET /v1/admin/training-data: no whole answer in 0.3 s; asking again');
  });
});
