import { describe, expect, it } from 'vitest';
import { bearer, call, event, FOREIGN_ORIGIN, newProject, ORIGIN, trace } from './test/fixtures.ts';

type Kind = 'write' | 'server' | 'admin';

/** Every endpoint, each with a valid request for it; only the key changes between cells. */
const endpoints: { name: string; allowed: Kind; request: (id: string) => [string, RequestInit & { json?: unknown }] }[] = [
  { name: 'POST /v1/events', allowed: 'write', request: (id) => ['/v1/events', { method: 'POST', json: { events: [event({ traceId: id })] } }] },
  { name: 'GET /v1/config', allowed: 'write', request: () => ['/v1/config', { method: 'GET' }] },
  { name: 'POST /v1/traces', allowed: 'server', request: (id) => ['/v1/traces', { method: 'POST', json: trace({ traceId: id }) }] },
  { name: 'GET /v1/traces/:id', allowed: 'admin', request: (id) => [`/v1/traces/${id}`, { method: 'GET' }] },
  { name: 'PUT /v1/config', allowed: 'admin', request: () => ['/v1/config', { method: 'PUT', json: { rating: true } }] },
];

describe('key × endpoint matrix', async () => {
  const p = await newProject();
  const t = trace();
  await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });

  for (const ep of endpoints) {
    for (const kind of ['write', 'server', 'admin'] as const) {
      it(`${ep.name} with a ${kind} key → ${kind === ep.allowed ? '2xx' : '403'}`, async () => {
        const [path, init] = ep.request(ep.name === 'POST /v1/traces' ? crypto.randomUUID() : t.traceId);
        const res = await call(path, { ...init, headers: bearer(p.keys[kind]) });
        if (kind === ep.allowed) {
          expect(res.status).toBe(200);
        } else {
          expect(res.status).toBe(403);
          expect(await res.json()).toMatchObject({ error: { code: 'wrong_key_kind', field: 'key' } });
        }
      });
    }
    it(`${ep.name} without a key → 401`, async () => {
      const [path, init] = ep.request(t.traceId);
      const res = await call(path, init);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'missing_key', field: 'key' } });
    });
    it(`${ep.name} with an unknown key → 401`, async () => {
      const [path, init] = ep.request(t.traceId);
      const res = await call(path, { ...init, headers: bearer(`rf${ep.allowed[0]}_unknownunknownunknownunknown12345`) });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_key', field: 'key' } });
    });
  }

  it("a key reads only its own project's traces", async () => {
    const other = await newProject();
    const res = await call(`/v1/traces/${t.traceId}`, { headers: bearer(other.keys.admin) });
    expect(res.status).toBe(404);
  });
});

describe('CORS and origins', () => {
  it('answers a preflight from an allowed origin, and not one from a foreign origin', async () => {
    await newProject();
    const ok = await call('/v1/events', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' } });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');

    const foreign = await call('/v1/events', { method: 'OPTIONS', headers: { origin: FOREIGN_ORIGIN, 'access-control-request-method': 'POST' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('rejects a write from a foreign origin and stores nothing', async () => {
    const p = await newProject();
    const t = trace();
    const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: FOREIGN_ORIGIN }, json: { events: [event({ traceId: t.traceId })] } });
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

  it('lets a browser read error responses from an allowed origin (so the widget sees 4xx, not a network error)', async () => {
    const p = await newProject();
    const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [{ nope: 1 }] } });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });
});

describe('GET and PUT /v1/config', () => {
  it('serves defaults until an admin sets a config, then serves that', async () => {
    const p = await newProject();
    const before = (await (await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: ORIGIN } })).json()) as any;
    expect(before).toMatchObject({ prompts: [], rating: false, thresholds: { rephraseWindowMs: 120_000, focusedDwellMs: 15_000 } });

    const config = { rating: true, prompts: [{ id: 'trouble', trigger: 'rephrase', text: { en: 'Having trouble finding an answer?', 'zh-CN': '是否遇到了困难？' }, maxPerDay: 2 }] };
    const put = await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: config });
    expect(put.status).toBe(200);
    const after = (await (await call('/v1/config', { headers: bearer(p.keys.write) })).json()) as any;
    expect(after.rating).toBe(true);
    expect(after.prompts[0]).toMatchObject({ id: 'trouble', trigger: 'rephrase', maxPerDay: 2, maxPerSession: 1, choices: [{ id: 'yes' }, { id: 'no' }] });
  });

  it('rejects a bad config naming the field, and keeps the old one', async () => {
    const p = await newProject();
    await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true } });
    const res = await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { prompts: [{ id: 'x', trigger: 'sneeze', text: 'hi' }] } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_config', field: 'prompts[0].trigger' } });
    const kept = (await (await call('/v1/config', { headers: bearer(p.keys.write) })).json()) as any;
    expect(kept.rating).toBe(true);
  });
});
