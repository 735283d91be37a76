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
