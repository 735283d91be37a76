import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MAX_ORIGIN_CHARS } from '../shared/thresholds.ts';
import { app } from './app.ts';
import { originStatements } from './auth/provision.ts';
import { countedD1 } from './storage/sql/counted-d1.ts';
import { bearer, call, event, FOREIGN_ORIGIN, newProject, ORIGIN, trace } from './test/fixtures.ts';

describe('the app', () => {
  it('answers unknown paths with the error shape', async () => {
    const res = await call('/v1/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), field: 'path' } });
  });

  it('tells browsers not to sniff any answer, whatever its route or status', async () => {
    const { keys } = await newProject();
    const answers = {
      health: await call('/v1/health'),
      config: await call('/v1/config', { headers: bearer(keys.write) }),
      preflight: await call('/v1/events', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }),
      badBody: await call('/v1/events', { method: 'POST', headers: bearer(keys.write), json: { events: 'no' } }),
      noKey: await call('/v1/traces/t-1'),
      wrongMethod: await call('/v1/health', { method: 'POST' }),
      unknownPath: await call('/nope'),
      console: await call('/admin/'),
    };
    expect(answers.badBody.status).toBe(400);
    expect(answers.unknownPath.status).toBe(404);
    for (const [name, res] of Object.entries(answers)) expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
  });

  it('answers a known path asked with another method with a 405 naming the methods it answers', async () => {
    const { keys } = await newProject();
    for (const [method, path, allow] of [
      ['POST', '/v1/health', 'GET'],
      ['GET', '/v1/admin/nightly', 'POST'],
      ['DELETE', '/v1/traces/t-1', 'GET'],
      ['POST', '/v1/config', 'GET, PUT'],
    ]) {
      const res = await call(path!, { method, headers: bearer(keys.admin) });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(await res.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining(allow!), field: 'method' } });
    }
    expect((await call('/v1/traces/t-1/more', { method: 'DELETE', headers: bearer(keys.admin) })).status).toBe(404);
    // Routes match strictly: a trailing slash is another path, not a method the path refuses.
    expect((await call('/v1/events/', { method: 'POST', headers: bearer(keys.write) })).status).toBe(404);
  });

  it('limits requests per IP on /v1/* before any key is checked, but not /v1/health', async () => {
    const limits = { ...env, RATE_LIMIT_IP_PER_MIN: '2' };
    const from = (path: string, ip: string) => app.request(path, { headers: { 'cf-connecting-ip': ip, ...bearer('rfw_unknown') } }, limits);
    const ip = crypto.randomUUID();
    for (let i = 0; i < 2; i++) expect((await from('/v1/config', ip)).status).toBe(401);
    expect((await from('/v1/config', ip)).status).toBe(429);
    expect((await from('/v1/traces/t-1', ip)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await from('/v1/health', ip)).status).toBe(200);
  });
});

describe('CORS and origins', () => {
  it('answers a preflight from an allowed origin, and not one from a foreign origin', async () => {
    await newProject();
    const ok = await call('/v1/events', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');

    const foreign = await call('/v1/events', { method: 'OPTIONS', headers: { origin: FOREIGN_ORIGIN, 'access-control-request-method': 'POST' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('does not look up an Origin longer than any a project may allow, so headers of kilobytes neither reach D1 nor fill the origin cache', async () => {
    const long = `https://${'a'.repeat(MAX_ORIGIN_CHARS)}.example`;
    expect(() => originStatements('p', { add: [long] })).toThrow(/at most/);
    const { db, queries } = countedD1(env.DB);
    const res = await call('/v1/events', { method: 'OPTIONS', headers: { origin: long, 'access-control-request-method': 'POST' }, bindings: { DB: db } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(queries()).toBe(0);
  });

  it('rejects a write from a foreign origin and stores nothing', async () => {
    const p = await newProject();
    const t = trace();
    const res = await call('/v1/events', {
      method: 'POST',
      headers: { ...bearer(p.keys.write), origin: FOREIGN_ORIGIN },
      json: { events: [event({ traceId: t.traceId })] },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toMatchObject({ error: { code: 'origin_not_allowed', field: 'origin' } });
  });

  it("rejects an origin allowed for another project but not for the key's own", async () => {
    const p = await newProject(['https://one.example.com']);
    await newProject(['https://two.example.com']);
    const res = await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: 'https://two.example.com' } });
    expect(res.status).toBe(403);
  });

  it('answers CORS on GET /v1/config for the widget, not on PUT, which an admin sends from a server', async () => {
    const p = await newProject();
    const get = await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: ORIGIN } });
    expect(get.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const put = await call('/v1/config', { method: 'PUT', headers: { ...bearer(p.keys.admin), origin: ORIGIN }, json: { rating: true } });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("takes the origin of pages a custom scheme serves (a Capacitor app's webview, a browser extension) as the browser sends it", async () => {
    for (const origin of ['capacitor://localhost', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop']) {
      const p = await newProject([origin]);
      const preflight = await call('/v1/events', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin }, json: { events: [event({ traceId: 't-app' })] } });
      expect(res.status).toBe(200);
    }
    // Still none: a path after it, no host to name (a file's page sends "null"), or written otherwise than sent.
    for (const given of ['capacitor://localhost/', 'capacitor://localhost/index.html', 'file://', 'capacitor://', 'CAPACITOR://localhost'])
      await expect(newProject([given]), given).rejects.toThrow(/not an origin/);
  });

  it('lets a browser read error responses from an allowed origin (so the widget sees 4xx, not a network error)', async () => {
    const p = await newProject();
    const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [{ nope: 1 }] } });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });
});
