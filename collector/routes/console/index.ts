import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { consoleSecurityHeaders } from './security-headers.ts';

/**
 * A path naming one of the build's files (`console.js`, `console.css`, `chunks/x-1a2b.js`) rather
 * than a page: only those two folders hold files, so a page naming an id that ends like a file name
 * (`/admin/traces/chat-2026.12.01`) is a page still.
 */
const isFile = (path: string) => /^\/admin\/(chunks\/)?[^/]+\.[a-z0-9]+$/i.test(path);

const NOT_BUILT = `The admin console has not been built. Run: npm run build:console (npm start and npm run deploy build it).\n`;

/**
 * /admin: the admin console, from the Workers static assets in console/build/admin/. Files are
 * served as they are; every other path under /admin is a page of the console, so it gets the
 * console's one HTML page and the console's router shows the page the URL names. No key is
 * needed to load it: the console asks for the admin key and sends it only to the API.
 */
export const consoleRoutes = new Hono<AppEnv>().use(consoleSecurityHeaders()).get('*', async (c) => {
  const url = new URL(c.req.url);
  if (isFile(url.pathname)) return c.env.ASSETS.fetch(new Request(url, { headers: c.req.raw.headers }));
  const page = await c.env.ASSETS.fetch(new Request(new URL('/admin/', url)));
  if (page.status === 404) return c.text(NOT_BUILT, 503);
  // The shell is tiny and names the current build's script: never use a stale copy.
  const res = new Response(page.body, page);
  res.headers.set('cache-control', 'no-cache');
  return res;
});
