/**
 * Serves the built widget and the test pages on 127.0.0.1, the way a host site would: a real
 * origin, so IndexedDB, Web Locks, CORS and CSP all behave as in production.
 */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { ROOT } from '../scripts/wrangler.ts';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };
/** Only these folders are served. */
const ALLOWED = ['dist/widget/', 'tests/e2e/pages/', 'node_modules/axe-core/'];

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the server on a free port; `headersFor` adds response headers per path (e.g. a CSP). */
export function startStaticServer(headersFor: (path: string) => Record<string, string> = () => ({})): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '');
    const file = join(ROOT, path);
    if (!ALLOWED.some((dir) => path.startsWith(dir)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store', ...headersFor(path) });
    if (extname(file) !== '.html') return void createReadStream(file).pipe(res);
    // Test pages are plain HTML with {{name}} holes, filled from the query string.
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    res.end(readFileSync(file, 'utf8').replace(/\{\{(\w+)\}\}/g, (_, name: string) => escapeHtml(params.get(name) ?? '')));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
