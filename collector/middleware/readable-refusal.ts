import type { MiddlewareHandler } from 'hono';

/** The response headers a page may read from the collector: a 429's wait. */
export const EXPOSED_HEADERS = ['Retry-After'];

/**
 * On the browser's routes, before the IP limit: a request over the limit is refused before CORS has
 * looked its origin up (a read of D1 the limit is there to spare), so its 429 gets the CORS headers
 * here. It names nothing of any project, so the page that sent it may read it, and the widget its
 * Retry-After. (A preflight refused is a failed preflight whatever it carries.)
 */
export const readableRefusal = (): MiddlewareHandler =>
  async function readableRefusal(c, next) {
    await next();
    const origin = c.req.header('origin');
    if (c.res.status !== 429 || !origin || c.req.method === 'OPTIONS' || c.res.headers.has('access-control-allow-origin')) return;
    c.res.headers.set('Access-Control-Allow-Origin', origin);
    c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(','));
    c.res.headers.append('Vary', 'Origin');
  };
