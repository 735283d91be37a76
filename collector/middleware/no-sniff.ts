import type { MiddlewareHandler } from 'hono';

/**
 * Every answer says its Content-Type is to be believed: a browser must not sniff a JSON body (which
 * may quote what a request sent, a field's value or a path) into HTML or script and run it.
 */
export const noSniff = (): MiddlewareHandler =>
  async function noSniff(c, next) {
    await next();
    // Every answer's headers can be set: the app makes its own, and the console copies what the assets binding sends.
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
  };
