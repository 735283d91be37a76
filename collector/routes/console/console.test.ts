import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { app } from '../../app.ts';
import { CONSOLE_CSP } from './security-headers.ts';

/** An assets binding holding the given files, as the Workers asset server answers for them. */
const assets = (files: Record<string, string>, seen: string[] = []) => ({
  fetch: async (input: RequestInfo | URL) => {
    const path = new URL(input instanceof Request ? input.url : input.toString()).pathname;
    seen.push(path);
    const body = files[path];
    return body === undefined
      ? new Response('', { status: 404 })
      : new Response(body, { headers: { 'content-type': 'text/plain', 'cache-control': 'public' } });
  },
});

const get = (path: string, files: Record<string, string>, seen?: string[]) => app.request(path, {}, { ...env, ASSETS: assets(files, seen) });

describe('/admin: the console', () => {
  const built = { '/admin/': '<!doctype html><rf-console></rf-console>', '/admin/console.js': 'export {}' };

  it('serves its one page for every page path, and files as they are', async () => {
    const seen: string[] = [];
    for (const path of ['/admin', '/admin/', '/admin/review?status=held', '/admin/traces/t-1']) {
      const res = await get(path, built, seen);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('<rf-console>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    expect(new Set(seen)).toEqual(new Set(['/admin/']));
    const js = await get('/admin/console.js', built);
    expect(await js.text()).toBe('export {}');
    expect((await get('/admin/missing.js', built)).status).toBe(404);
  });

  it('serves its page for a trace whose id ends like a file name, as a link opened in a new tab or a reload asks for it', async () => {
    const seen: string[] = [];
    for (const id of ['chat-2026.12.01', 'msg.v2', 'refunds.md', 'a/b.json']) {
      const res = await get(`/admin/traces/${encodeURIComponent(id)}`, built, seen);
      expect(res.status, id).toBe(200);
      expect(await res.text()).toContain('<rf-console>');
    }
    expect(new Set(seen)).toEqual(new Set(['/admin/']));
    // The build's split chunks are files still.
    expect((await get('/admin/chunks/missing-1A2B3C4D.js', built)).status).toBe(404);
  });

  it('sends a strict CSP with no inline script and no framing on every answer, errors included', async () => {
    for (const [path, files] of [
      ['/admin/review', built],
      ['/admin/console.js', built],
      ['/admin/missing.js', built],
      ['/admin/review', {}],
    ] as const) {
      const res = await get(path, files);
      expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).not.toContain('unsafe-eval');
  });

  it('says how to build the console when it has not been built', async () => {
    const res = await get('/admin/review', {});
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build:console');
  });

  it('needs no key to load, and leaves the API as it was', async () => {
    expect((await get('/admin/', built)).status).toBe(200);
    const api = await app.request('/v1/admin/review', {}, env);
    expect(api.status).toBe(401);
    expect(api.headers.get('content-security-policy')).toBeNull();
  });
});
