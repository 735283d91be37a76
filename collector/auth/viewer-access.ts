import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';

/**
 * What a viewer key may read: the loop's figures (health, runs, the models and their metrics, the
 * settings, the project's name, how often each chunk is shown and clicked), never what a user
 * typed or was answered. Everyone who needs to see whether the loop works can have one; the raw
 * records stay with the admin key's holders.
 * Exact method and path: a route not listed here is refused, so a new one is admin-only unless
 * it is added on purpose.
 */
export const VIEWER_READS: ReadonlySet<string> = new Set([
  'GET /v1/admin/project',
  'GET /v1/admin/health',
  'GET /v1/admin/runs',
  'GET /v1/admin/models',
  'GET /v1/admin/settings',
  'GET /v1/admin/chunks',
]);

/** After `requireKey('admin', 'viewer')`: a viewer key passes only to the reads above. */
export const viewerReadsFigures = (): MiddlewareHandler<AppEnv> =>
  async function viewerReadsFigures(c, next) {
    const path = c.req.path.replace(/\/+$/, '');
    if (c.get('auth').kind === 'viewer' && !VIEWER_READS.has(`${c.req.method === 'HEAD' ? 'GET' : c.req.method} ${path}`)) {
      throw new ApiError(403, {
        code: 'admin_only',
        message: "A viewer key reads the loop's figures only (health, runs, models, settings, chunk use): this needs an admin key",
        field: 'key',
      });
    }
    await next();
  };
