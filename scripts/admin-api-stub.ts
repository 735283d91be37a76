/**
 * A stand-in for a collector's admin API, for the tools' tests that need answers a real collector
 * gives only in a race (a model promoted while another trains) or with data it takes minutes to
 * fill: each `METHOD /path` answers what the test gives, and every request is kept.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubAnswer {
  status: number;
  /** Sent as JSON; a string is sent as an HTML page. */
  body: unknown;
  headers?: Record<string, string>;
}

export interface AdminApiStub {
  url: string;
  /** What was asked, in order: `METHOD /path` and the JSON body, if any. */
  requests: { route: string; body: unknown }[];
  close(): Promise<void>;
}

/** An answer, or how to answer a request's JSON body (as a registry that refuses a version it holds). */
export type StubRoute = StubAnswer | ((body: unknown) => StubAnswer);

export async function stubAdminApi(answers: Record<string, StubRoute>): Promise<AdminApiStub> {
  const requests: AdminApiStub['requests'] = [];
  const server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const route = `${req.method} ${req.url?.split('?')[0]}`;
    const body = text ? JSON.parse(text) : undefined;
    requests.push({ route, body });
    const given = answers[route] ?? { status: 404, body: { error: { code: 'not_found', message: `no ${route}` } } };
    const answer = typeof given === 'function' ? given(body) : given;
    // A string is a page, as a proxy or another site at the collector's address would answer.
    const page = typeof answer.body === 'string';
    res
      .writeHead(answer.status, { 'content-type': page ? 'text/html' : 'application/json', ...answer.headers })
      .end(page ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
