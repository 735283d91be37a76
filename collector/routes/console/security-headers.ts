import type { MiddlewareHandler } from 'hono';

/**
 * The console's Content-Security-Policy: scripts, styles and API calls only from this origin, no
 * inline script or style element, no framing, no plugins, no forms posting elsewhere, and Trusted
 * Types so that no string can reach an HTML sink (Lit's own templates use the `lit-html` policy).
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

/** Headers on every console response, whether a page, a script or an error (and `nosniff`, as on every answer: middleware/no-sniff.ts). */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Sets the console's headers on the response, replacing any the asset server sent. */
export const consoleSecurityHeaders = (): MiddlewareHandler =>
  async function consoleSecurityHeaders(c, next) {
    await next();
    // Responses from the assets binding have immutable headers: copy before setting.
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) c.res.headers.set(name, value);
  };
