import type { Hono } from 'hono';

const patterns = new Map<string, RegExp>();

/** A route path (`/v1/traces/:id`, `/admin/*`) as a pattern for whole request paths. */
function patternOf(path: string): RegExp {
  let pattern = patterns.get(path);
  if (!pattern) {
    const source = path
      .split(/(:\w+(?:\{[^}]*\})?|\*)/)
      .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    pattern = new RegExp(`^${source}$`); // as Hono routes: strictly, so `/v1/events/` is not `/v1/events`
    patterns.set(path, pattern);
  }
  return pattern;
}

/** The methods the app's routes (its middleware aside) answer at `path`: what a 405's `Allow` names. */
export function allowedMethods(app: Pick<Hono, 'routes'>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) if (route.method !== 'ALL' && patternOf(route.path).test(path)) methods.add(route.method);
  return [...methods].sort();
}

/** What an app answers a request no route takes: a 405 naming the method, with `Allow`, when the path answers others; else a 404 naming the path. */
export function noRoute(
  app: Pick<Hono, 'routes'>,
  method: string,
  path: string,
): { status: 404 | 405; code: string; message: string; field: 'path' | 'method'; headers: Record<string, string> } {
  const allow = allowedMethods(app, path);
  // A route that takes this method and found nothing (a file not there) answers 404 too.
  const taken = allow.includes(method) || (method === 'HEAD' && allow.includes('GET'));
  if (!allow.length || taken) return { status: 404, code: 'not_found', message: `No route for ${method} ${path}`, field: 'path', headers: {} };
  const message = `${path} answers ${allow.join(', ')}, not ${method}`;
  return { status: 405, code: 'method_not_allowed', message, field: 'method', headers: { allow: allow.join(', ') } };
}
