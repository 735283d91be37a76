/**
 * A stand-in collector for the demo's tests, on a port of its own: it takes traces as the collector
 * does, or refuses them with the status `refuseWith` says in the collector's error shape, and it can
 * go down and come back on the same port. It answers a server asking, as the widget would, whether it
 * takes the widget's events from an origin (`GET /v1/config`), and its health (`GET /v1/health`), but serves no model, and nothing to a page.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInCollector {
  url: string;
  /** Null: every trace is taken; else the status each request with traces is answered. */
  refuseWith: 401 | 403 | 404 | 500 | 503 | null;
  /** Traces taken so far, counted as they come. */
  taken: number;
  /** The origins whose widget events it takes; null: any. */
  allowedOrigins: string[] | null;
  /** How long each answer to traces is held back, decided as the request came (0: none). */
  delayMs: number;
  /** Stops listening, so connections to its port are refused. */
  down(): Promise<void>;
  /** Listens again, on the same port. */
  up(): Promise<void>;
}

const REFUSALS = {
  401: { code: 'invalid_key', message: 'The key is unknown or revoked' },
  403: { code: 'wrong_key_kind', message: 'This endpoint needs a server key, not a write key' },
  404: { code: 'not_found', message: 'No route for POST /v1/traces' },
  500: { code: 'internal', message: 'Internal error' },
  503: { code: 'unavailable', message: 'Try again later' },
};

export async function standInCollector(): Promise<StandInCollector> {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/health') return json(res, 200, { status: 'ok', version: 'stand-in' });
      if (req.method === 'GET' && req.url === '/v1/config') {
        const origin = req.headers.origin ?? '';
        if (!stand.allowedOrigins || stand.allowedOrigins.includes(origin)) return json(res, 200, { prompts: [] });
        return json(res, 403, { error: { code: 'origin_not_allowed', message: `Origin ${origin} is not allowed for this project`, field: 'origin' } });
      }
      if (req.method !== 'POST' || req.url !== '/v1/traces') return json(res, 404, { error: { code: 'not_found', message: 'Not found' } });
      const answer = (status: number, body: unknown) => setTimeout(() => json(res, status, body), stand.delayMs);
      if (stand.refuseWith) return answer(stand.refuseWith, { error: REFUSALS[stand.refuseWith] });
      const traces = JSON.parse(body) as { traceId: string }[];
      stand.taken += traces.length;
      answer(200, { accepted: traces.length, duplicate: 0, rejected: 0, results: traces.map((t, index) => ({ index, id: t.traceId, status: 'accepted' })) });
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const stand: StandInCollector = {
    url: `http://127.0.0.1:${port}`,
    refuseWith: null,
    taken: 0,
    allowedOrigins: null,
    delayMs: 0,
    down: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    up: () => listen(port),
  };
  return stand;
}
