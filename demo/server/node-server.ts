/**
 * Serves a fetch handler (a Hono app's `fetch`) on node:http, so the demo needs no server
 * framework: requests become web `Request`s and `Response`s are written back as they stream.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { errorBody } from '../../shared/error-body.ts';

export interface NodeServer {
  /** `http://host:port`, with the port the system chose when asked for 0. */
  url: string;
  /** Stops taking requests and resolves once those on their way are answered (cut off after `CLOSE_GRACE_MS`). */
  close(): Promise<void>;
}

/**
 * How long closing lets requests on their way finish: an answer waiting on a language model is
 * answered, and its trace logged, rather than cut off with a reset connection.
 */
export const CLOSE_GRACE_MS = 10_000;

const NOT_A_URL = 'The request target is not a URL';

/** Methods node's parser takes that a web `Request` cannot carry: fetch forbids them. */
const UNCARRIED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The refusal of a request that cannot become a web `Request` (a method fetch forbids, a target
 * that is no URL, such as `http://[`), in the app's error shape rather than a 500 and a stack.
 */
function refusalOf(req: IncomingMessage): Response | undefined {
  if (UNCARRIED_METHODS.has(req.method ?? '')) return Response.json(errorBody('method_not_allowed', `${req.method} is not served`, 'method'), { status: 405 });
  if (!URL.canParse(req.url ?? '/', 'http://localhost'))
    return Response.json(errorBody('invalid_url', NOT_A_URL, 'path', [{ field: 'path', message: NOT_A_URL }]), { status: 400 });
  return undefined;
}

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    ...(hasBody && { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }),
  } as RequestInit);
}

export function serve(fetch: (request: Request) => Response | Promise<Response>, { port, host }: { port: number; host: string }): Promise<NodeServer> {
  let active = 0;
  let closing = false;
  const server = createServer(async (req, res) => {
    // Closing takes no new request, even on a kept-alive connection an earlier answer left open.
    if (closing) {
      req.socket.destroy();
      return;
    }
    active++;
    try {
      const address = server.address() as AddressInfo;
      const response = refusalOf(req) ?? (await fetch(toRequest(req, `http://${host}:${address.port}`)));
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
      });
      // An answer finishing while closing closes its connection: the client's next request opens a new one, which is refused.
      if (closing) headers.connection = 'close';
      res.writeHead(response.status, headers);
      if (response.body && req.method !== 'HEAD') await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res);
      else res.end();
    } catch (err) {
      console.error('demo: request failed', err);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    } finally {
      active--;
      // The last answer while closing: a kept-alive connection left idle would hold the close open.
      if (closing && active === 0) server.closeIdleConnections();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            const cutOff = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            // No new connection; idle ones close now, the others once their answer is sent.
            server.close(() => {
              clearTimeout(cutOff);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
