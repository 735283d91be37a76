import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { hashKey } from './auth/key-format.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from './test/fixtures.ts';

type Kind = 'write' | 'server' | 'admin';

/** Every endpoint, each with a valid request for it; only the key changes between cells. */
const endpoints: { name: string; allowed: Kind[]; request: (id: string) => [string, RequestInit & { json?: unknown }] }[] = [
  { name: 'POST /v1/events', allowed: ['write', 'server'], request: (id) => ['/v1/events', { method: 'POST', json: { events: [event({ traceId: id })] } }] },
  { name: 'GET /v1/config', allowed: ['write'], request: () => ['/v1/config', { method: 'GET' }] },
  { name: 'POST /v1/traces', allowed: ['server'], request: (id) => ['/v1/traces', { method: 'POST', json: trace({ traceId: id }) }] },
  { name: 'GET /v1/traces/:id', allowed: ['admin'], request: (id) => [`/v1/traces/${id}`, { method: 'GET' }] },
  { name: 'PUT /v1/config', allowed: ['admin'], request: () => ['/v1/config', { method: 'PUT', json: { rating: true } }] },
];

describe('key × endpoint matrix', async () => {
  const p = await newProject();
  const t = trace();
  await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });

  for (const ep of endpoints) {
    for (const kind of ['write', 'server', 'admin'] as const) {
      it(`${ep.name} with a ${kind} key → ${ep.allowed.includes(kind) ? '2xx' : '403'}`, async () => {
        const [path, init] = ep.request(ep.name === 'POST /v1/traces' ? crypto.randomUUID() : t.traceId);
        const res = await call(path, { ...init, headers: bearer(p.keys[kind]) });
        if (ep.allowed.includes(kind)) {
          expect(res.status).toBe(200);
        } else {
          expect(res.status).toBe(403);
          const article = (k: string) => (k.startsWith('admin') ? 'an' : 'a');
          const allowed = ep.allowed.join(' or ');
          expect(await res.json()).toMatchObject({
            error: {
              code: 'wrong_key_kind',
              field: 'key',
              message: `This endpoint needs ${article(allowed)} ${allowed} key, not ${article(kind)} ${kind} key`,
            },
          });
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
      const res = await call(path, { ...init, headers: bearer(`rf${ep.allowed[0]![0]}_unknownunknownunknownunknown12345`) });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_key', field: 'key' } });
    });
  }

  it('takes a key in the URL or the body from the widget alone: a server or admin key in the body is missing, in the URL a parameter the route does not take', async () => {
    const inBody = await call('/v1/config', { method: 'PUT', json: { rating: true, writeKey: p.keys.admin } });
    expect(inBody.status).toBe(401);
    expect(await inBody.json()).toMatchObject({ error: { code: 'missing_key', field: 'key', message: expect.stringContaining('Authorization') } });
    for (const [path, init, key] of [
      [`/v1/traces/${t.traceId}`, { method: 'GET' }, p.keys.admin],
      ['/v1/config', { method: 'PUT', json: { rating: true } }, p.keys.admin],
      ['/v1/traces', { method: 'POST', json: trace() }, p.keys.server],
    ] as const) {
      const res = await call(`${path}?key=${key}`, init);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.key' } });
    }
    // A route that takes parameters checks them after the key: none in the headers is a missing key.
    const withParameters = await call(`/v1/admin/review?key=${p.keys.admin}`, { method: 'GET' });
    expect(withParameters.status).toBe(401);
    expect(await withParameters.json()).toMatchObject({ error: { code: 'missing_key', field: 'key' } });
  });

  it('takes a server key for events from the headers alone: it, or any key but the write key, in the URL or the body is refused as leaked, and nothing is stored', async () => {
    const e = event({ traceId: t.traceId });
    for (const [path, json] of (['server', 'admin', 'viewer'] as const).flatMap((kind): [string, object][] => [
      [`/v1/events?key=${p.keys[kind]}`, { events: [e] }],
      ['/v1/events', { events: [e], writeKey: p.keys[kind] }],
    ])) {
      const res = await call(path, { method: 'POST', json });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'key_not_in_header', field: 'key' } });
    }
    const stored = await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) });
    expect(((await stored.json()) as { events: { eventId: string }[] }).events.map((x) => x.eventId)).not.toContain(e.eventId);
  });

  it("takes a write key from the body when the URL's key or the X-Api-Key header is given empty", async () => {
    for (const [path, headers] of [
      ['/v1/events?key=', {}],
      ['/v1/events', { 'x-api-key': '' }],
    ] as const) {
      const e = event({ traceId: t.traceId });
      const res = await call(path, { method: 'POST', headers: { ...headers, origin: ORIGIN }, json: { events: [e], writeKey: p.keys.write } });
      expect(res.status, path).toBe(200);
      expect(await res.json()).toMatchObject({ accepted: 1 });
    }
  });

  it('takes a write key from the URL or the body when Authorization holds no key after Bearer, as when no header is sent', async () => {
    // Space, tab and line breaks at either end of a header value go before the Worker sees it; the
    // other white space JavaScript trims (a vertical tab, a form feed, a no-break space) does not.
    for (const authorization of ['Bearer ', 'Bearer', 'bearer \t ', '   ', 'Bearer \v', 'Bearer \f', 'Bearer \u00a0']) {
      for (const [path, json] of [
        [`/v1/events?key=${p.keys.write}`, {}],
        ['/v1/events', { writeKey: p.keys.write }],
      ] as const) {
        const e = event({ traceId: t.traceId });
        const res = await call(path, { method: 'POST', headers: { authorization, origin: ORIGIN }, json: { events: [e], ...json } });
        expect(res.status, `${JSON.stringify(authorization)} ${path}`).toBe(200);
        expect(await res.json()).toMatchObject({ accepted: 1 });
      }
    }
    // Elsewhere it is no key either: a 401 missing_key, as without the header.
    const res = await call(`/v1/traces/${t.traceId}`, { headers: { authorization: 'Bearer \v' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'missing_key', field: 'key' } });
  });

  it('refuses a request without a key before reading its body, where the key is never in the body', async () => {
    for (const [method, path] of [
      ['POST', '/v1/traces'],
      ['PUT', '/v1/config'],
      ['POST', '/v1/rerank'],
    ] as const) {
      // 1 MB of a JSON array, within every limit, counting what was pulled from it.
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 1 << 20) return controller.close();
          controller.enqueue(new TextEncoder().encode(pulled === 0 ? '[' : ' '.repeat(4096)));
          pulled += 4096;
        },
      });
      const res = await call(path, { method, headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
      expect(res.status, path).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'missing_key', field: 'key' } });
      expect(pulled, path).toBeLessThan(64 * 1024);
    }
  });

  it("a key reads only its own project's traces", async () => {
    const other = await newProject();
    const res = await call(`/v1/traces/${t.traceId}`, { headers: bearer(other.keys.admin) });
    expect(res.status).toBe(404);
  });
});

describe('a revoked key', () => {
  /** Revokes the key from `at`, as `npm run keys -- revoke` does. */
  const revoke = async (key: string, at: number) =>
    env.DB.prepare('update api_keys set revoked_at = ? where key_hash = ?')
      .bind(at, await hashKey(key))
      .run();
  const send = (key: string) =>
    call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN }, json: { events: [event({ traceId: 'tr-revoked' })] } });

  it('goes on working until the time it is revoked from, so outboxes deliver what they recorded under it', async () => {
    const p = await newProject();
    await revoke(p.keys.write, Date.now() + 86_400_000);
    expect((await send(p.keys.write)).status).toBe(200);
  });

  it('stops working once that time has passed', async () => {
    const p = await newProject();
    await revoke(p.keys.write, Date.now() - 1);
    const res = await send(p.keys.write);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_key', field: 'key' } });
  });
});
