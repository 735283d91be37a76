import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { TokenBuckets } from '../../shared/token-bucket.ts';
import { app as collector } from '../app.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { handleError } from '../errors.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { bearer, call, counts, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { ipRateLimit, writeRateLimit } from './rate-limit.ts';

async function expect429(res: Response, field: string) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await res.json()).toMatchObject({ error: { code: 'rate_limited', field } });
}

/** A write of one event per session named in the body, from the key named in `x-key`. */
const app = new Hono<AppEnv & WithInput<string[]>>()
  .use(ipRateLimit())
  .get('/', (c) => c.text('ok'))
  .post(
    '/write',
    async (c, next) => {
      c.set('auth', { projectId: 'p', kind: 'write', origins: [], keyHash: c.req.header('x-key')! });
      c.set('input', await c.req.json<string[]>());
      await next();
    },
    writeRateLimit((sessions: string[]) => ({
      units: sessions.length,
      sessions: sessions.reduce((m, s) => m.set(s, (m.get(s) ?? 0) + 1), new Map<string, number>()),
    })),
    // The sessions set aside, as the handler sees them.
    (c) => c.json([...(c.get('sessionsOverLimit') ?? [])]),
  )
  .onError(handleError);

const limits = { ...env, RATE_LIMIT_IP_PER_MIN: '3', RATE_LIMIT_KEY_PER_MIN: '10', RATE_LIMIT_SESSION_PER_MIN: '4' };
const fromIp = (ip: string, path = '/') => app.request(path, { headers: { 'cf-connecting-ip': ip } }, limits);
const write = (key: string, sessions: string[]) =>
  app.request('/write', { method: 'POST', headers: { 'cf-connecting-ip': crypto.randomUUID(), 'x-key': key }, body: JSON.stringify(sessions) }, limits);

describe('ipRateLimit', () => {
  it("answers requests over an IP's limit with 429 and Retry-After; other IPs are not affected", async () => {
    const ip = crypto.randomUUID();
    for (let i = 0; i < 3; i++) expect((await fromIp(ip)).status).toBe(200);
    const refused = await fromIp(ip);
    await expect429(refused, 'ip');
    expect(refused.headers.get('retry-after')).toBe('20'); // one request of 3 per minute
    expect((await fromIp(crypto.randomUUID())).status).toBe(200);
  });

  it('counts an IPv6 client by its /64, from whichever of its addresses it sends', async () => {
    const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    for (const host of ['::1', '::2', ':ffff:1:2:3']) expect((await fromIp(`${net}${host}`)).status).toBe(200);
    await expect429(await fromIp(`${net}::9`), 'ip');
    expect((await fromIp(`${net.slice(0, -1)}8::1`)).status).toBe(200);
  });

  it('counts every request, whatever it is answered', async () => {
    const ip = crypto.randomUUID();
    for (let i = 0; i < 3; i++) expect((await fromIp(ip, '/nowhere')).status).toBe(404);
    await expect429(await fromIp(ip), 'ip');
  });
});

describe('the rate limit in the collector', () => {
  it("answers an allowed origin's 429 with CORS headers, so the widget can read Retry-After, and counts preflights too", async () => {
    const p = await newProject();
    const ip = crypto.randomUUID();
    const send = (method: 'OPTIONS' | 'POST') =>
      collector.request(
        '/v1/events',
        {
          method,
          headers:
            method === 'OPTIONS'
              ? { 'cf-connecting-ip': ip, origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
              : { 'cf-connecting-ip': ip, origin: ORIGIN, ...bearer(p.keys.write), 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify({ events: [event({ traceId: 'tr-limit' })] }) : undefined,
        },
        { ...env, RATE_LIMIT_IP_PER_MIN: '2' },
      );
    expect((await send('OPTIONS')).status).toBe(204);
    expect((await send('POST')).status).toBe(200);
    const refused = await send('POST');
    expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    await expect429(refused, 'ip');
    await expect429(await send('OPTIONS'), 'ip');
  });

  it('refuses an address over its limit before reading anything for it, its origin included, and the page can read the 429', async () => {
    const ip = crypto.randomUUID();
    const { db: DB, queries: reads } = countedD1(env.DB);
    // Each from an origin never seen, which only D1 can tell whether some project allows.
    const send = (origin = `https://${crypto.randomUUID()}.example`) =>
      collector.request(
        '/v1/events',
        { method: 'POST', headers: { 'cf-connecting-ip': ip, origin, 'content-type': 'application/json' }, body: '{}' },
        { ...env, DB, RATE_LIMIT_IP_PER_MIN: '1' },
      );
    expect((await send()).status).toBe(400);
    expect(reads()).toBe(1);
    const origin = `https://${crypto.randomUUID()}.example`;
    const refused = await send(origin);
    await expect429(refused, 'ip');
    expect(reads()).toBe(1);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });
});

describe("a backend's requests", () => {
  it('count against its server or admin key, not its address, while a bad key or none counts against the address', async () => {
    const p = await newProject();
    const ip = crypto.randomUUID();
    const bindings = { RATE_LIMIT_IP_PER_MIN: '3', RATE_LIMIT_KEY_PER_MIN: '10' };
    const rerank = (key: string) =>
      call('/v1/rerank', {
        method: 'POST',
        headers: { ...bearer(key), 'cf-connecting-ip': ip },
        json: { query: 'refunds', chunks: [{ chunkId: 'c', text: 't' }] },
        bindings,
      });
    // The first is read from D1 and counts against the address; the next 10 against the key alone.
    for (let i = 0; i < 11; i++) expect((await rerank(p.keys.server)).status).toBe(200);
    await expect429(await rerank(p.keys.server), 'key');
    const documents = (key: string) => call('/v1/admin/documents', { headers: { ...bearer(key), 'cf-connecting-ip': ip }, bindings });
    for (let i = 0; i < 5; i++) expect((await documents(p.keys.admin)).status).toBe(200);
    // The admin key's first counted against the address too, which has 1 of its 3 left: a bad key, a write key or none counts against it.
    expect((await rerank(`rfs_${crypto.randomUUID()}`)).status).toBe(401);
    await expect429(await rerank(`rfs_${crypto.randomUUID()}`), 'ip');
    await expect429(await documents(p.keys.write), 'ip');
    await expect429(await call('/v1/rerank', { method: 'POST', headers: { 'cf-connecting-ip': ip }, json: {}, bindings }), 'ip');
  });
});

describe("the console's requests", () => {
  it("count against a viewer key as against an admin key, not the address, so the loop's readers behind one address share no browser's limit", async () => {
    const p = await newProject();
    const ip = crypto.randomUUID();
    const bindings = { RATE_LIMIT_IP_PER_MIN: '3', RATE_LIMIT_KEY_PER_MIN: '10' };
    const health = (headers: Record<string, string>) => call('/v1/admin/health', { headers: { ...headers, 'cf-connecting-ip': ip }, bindings });
    // The first is read from D1 and counts against the address; the next 10 against the key alone.
    for (let i = 0; i < 11; i++) expect((await health(bearer(p.keys.viewer))).status).toBe(200);
    await expect429(await health(bearer(p.keys.viewer)), 'key');
    // The address has 2 of its 3 left.
    for (let i = 0; i < 2; i++) expect((await health({})).status).toBe(401);
    await expect429(await health({}), 'ip');
  });
});

describe("a request's key", () => {
  it('is hashed once, though the IP limit and the route both look it up, whether the key cache holds it or not', async () => {
    const p = await newProject();
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    const hashed: string[] = [];
    const spy = vi.spyOn(crypto.subtle, 'digest').mockImplementation((algorithm, data) => {
      hashed.push(new TextDecoder().decode(data as ArrayBuffer | ArrayBufferView<ArrayBuffer>));
      return digest(algorithm, data);
    });
    try {
      // The first is read from D1, the second from the cache.
      for (let i = 0; i < 2; i++) expect((await call('/v1/admin/project', { headers: bearer(p.keys.admin) })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(hashed.filter((text) => text === p.keys.admin)).toHaveLength(2);
  });
});

describe('writeRateLimit', () => {
  it("limits one key's units per minute", async () => {
    const key = crypto.randomUUID();
    expect((await write(key, ['a', 'b', 'c', 'd', 'e', 'f'])).status).toBe(200);
    await expect429(await write(key, ['g', 'h', 'i', 'j', 'k']), 'key');
    expect((await write(key, ['g', 'h', 'i', 'j'])).status).toBe(200);
  });

  it("limits one session's events, and a refused write spends nothing from its key", async () => {
    const key = crypto.randomUUID();
    expect((await write(key, ['s', 's', 's'])).status).toBe(200);
    await expect429(await write(key, ['s', 's']), 'session');
    // 3 of the key's 10 are spent; had the refused write taken its 2, these 7 would be refused.
    expect((await write(key, ['a', 'b', 'c', 'd', 'e', 'f', 'g'])).status).toBe(200);
  });

  it('sets aside the sessions over their limit when others of the write are not, charging the key only for what it takes', async () => {
    const key = crypto.randomUUID();
    const [s, t] = [crypto.randomUUID(), crypto.randomUUID()];
    const first = await write(key, [s, s, s, s]);
    expect(await first.json()).toEqual([]);
    // s has none left (a 30 s wait for 2 of 4 a minute); t goes on alone.
    const mixed = await write(key, [s, t, s]);
    expect(mixed.status).toBe(200);
    expect(await mixed.json()).toEqual([[s, 30]]);
    // 4 + 1 of the key's 10 spent: had s's 2 been charged too, 5 more would be refused.
    expect((await write(key, ['a', 'b', 'c', 'd', 'e'])).status).toBe(200);
    await expect429(await write(key, ['f']), 'key');
  });

  it("names a session's bucket by a digest, so a long session id, which is checked only after the limit, takes no more of the isolate's memory than a short one", async () => {
    const waitFor = vi.spyOn(TokenBuckets.prototype, 'waitFor');
    const long = `s${'x'.repeat(20_000)}`;
    try {
      expect((await write(crypto.randomUUID(), [long, long])).status).toBe(200);
      await expect429(await write(crypto.randomUUID(), [long, long, long]), 'session');
      const names = waitFor.mock.calls.map(([bucket]) => bucket.name).filter((name) => name.startsWith('session:'));
      expect(names.length).toBeGreaterThan(0);
      expect(Math.max(...names.map((name) => name.length))).toBeLessThan(100);
    } finally {
      waitFor.mockRestore();
    }
  });

  it('refuses the whole write when every session of it is over its limit', async () => {
    const key = crypto.randomUUID();
    const [s, t] = [crypto.randomUUID(), crypto.randomUUID()];
    expect((await write(key, [s, s, s, s, t, t, t, t])).status).toBe(200);
    await expect429(await write(key, [s, t]), 'session');
  });
});

// Through the Worker, with the limits vitest.config.ts sets: key 2000/min, session 300/min.
const batch = (traceId: string, session: (i: number) => string, n = 100) => Array.from({ length: n }, (_, i) => event({ traceId, sessionId: session(i) }));

const send = (key: string, events: unknown[], ip = '203.0.113.1') =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN, 'cf-connecting-ip': ip }, json: { events } });

/** The project's stored events of `sessionId`. */
const storedOf = async (projectId: string, sessionId: string) =>
  (
    await env.DB.prepare('select event_id from feedback_events where project_id = ? and session_id = ? order by event_id')
      .bind(projectId, sessionId)
      .all<{ event_id: string }>()
  ).results.map((r) => r.event_id);

/** Sends `sessionId` batches until its per-minute bucket is spent, each of them stored. */
async function spendSession(key: string, traceId: string, sessionId: string) {
  for (let i = 0; i < 3; i++)
    expect(
      (
        await send(
          key,
          batch(traceId, () => sessionId),
        )
      ).status,
    ).toBe(200);
}

describe('rate limits of POST /v1/events', () => {
  it("stores a quiet session's events from a batch in which another session floods, answering the flooder's rate_limited", async () => {
    const p = await newProject();
    const t = trace();
    const [flood, quiet] = [`flood-${crypto.randomUUID()}`, `quiet-${crypto.randomUUID()}`];
    await spendSession(p.keys.server, t.traceId, flood);
    const mixed = batch(t.traceId, (i) => (i % 2 ? quiet : flood), 6);
    const res = await send(p.keys.server, mixed);
    // A client that reads no results sends the whole batch again after Retry-After, as after any 429.
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ accepted: 3, duplicate: 0, rejected: 0, rateLimited: 3, error: { code: 'rate_limited', field: 'events[0].sessionId' } });
    expect(body.results).toEqual(
      mixed.map((e, index) =>
        e.sessionId === quiet
          ? { index, id: e.eventId, status: 'accepted' }
          : {
              index,
              id: e.eventId,
              status: 'rate_limited',
              field: `events[${index}].sessionId`,
              reason: `Too many events for this session; retry in ${retryAfter} s`,
              retryAfter,
            },
      ),
    );
    expect(await storedOf(p.id, quiet)).toEqual(
      mixed
        .filter((e) => e.sessionId === quiet)
        .map((e) => e.eventId)
        .sort(),
    );
    expect((await storedOf(p.id, flood)).filter((id) => mixed.some((e) => e.eventId === id))).toEqual([]);
    // Every session of the batch over: refused whole, as before, with nothing stored.
    const before = await counts(p.id);
    const refused = await send(
      p.keys.server,
      batch(t.traceId, () => flood, 3),
    );
    await expect429(refused.clone(), 'session');
    expect(await refused.json()).not.toHaveProperty('results');
    expect(await counts(p.id)).toEqual(before);
  });

  it('answers an invalid event of a flooding session rejected, since sending it again cannot help', async () => {
    const p = await newProject();
    const t = trace();
    const [flood, quiet] = [`flood-${crypto.randomUUID()}`, `quiet-${crypto.randomUUID()}`];
    await spendSession(p.keys.server, t.traceId, flood);
    const bad = { ...event({ traceId: t.traceId, sessionId: flood }), signalType: 'nope' };
    const res = await send(p.keys.server, [bad, event({ traceId: t.traceId, sessionId: flood }), event({ traceId: t.traceId, sessionId: quiet })]);
    expect(res.status).toBe(429);
    expect(((await res.json()) as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(['rejected', 'rate_limited', 'accepted']);
  });

  it('limits one session, answering 429 with Retry-After and storing nothing of the refused batch', async () => {
    const p = await newProject();
    const t = trace();
    const session = `flood-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++)
      expect(
        (
          await send(
            p.keys.write,
            batch(t.traceId, () => session),
            `203.0.113.${i + 10}`,
          )
        ).status,
      ).toBe(200);
    const before = await counts(p.id);
    await expect429(
      await send(
        p.keys.write,
        batch(t.traceId, () => session, 20),
        '203.0.113.20',
      ),
      'session',
    );
    expect(await counts(p.id)).toEqual(before);
    // Another session of the same project is not affected.
    expect(
      (
        await send(
          p.keys.write,
          batch(t.traceId, () => 'calm', 5),
          '203.0.113.21',
        )
      ).status,
    ).toBe(200);
  });

  it('limits one key across sessions and addresses', async () => {
    const p = await newProject();
    const t = trace();
    for (let i = 0; i < 20; i++) {
      expect(
        (
          await send(
            p.keys.write,
            batch(t.traceId, (j) => `k${i}-${j}`),
            `203.0.114.${i}`,
          )
        ).status,
      ).toBe(200);
    }
    await expect429(
      await send(
        p.keys.write,
        batch(t.traceId, (j) => `late-${j}`),
        '203.0.114.99',
      ),
      'key',
    );
    // Other projects' keys still work.
    const q = await newProject();
    expect(
      (
        await send(
          q.keys.write,
          batch(t.traceId, () => 'other', 1),
          '203.0.114.100',
        )
      ).status,
    ).toBe(200);
  });
});
