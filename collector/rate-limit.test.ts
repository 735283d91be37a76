import { describe, expect, it } from 'vitest';
import { bearer, call, counts, event, newProject, ORIGIN, trace } from './test/fixtures.ts';

// Limits for this suite are set in vitest.config.ts: key 2000/min, session 300/min, IP 200/min.
const batch = (traceId: string, session: (i: number) => string, n = 100) =>
  Array.from({ length: n }, (_, i) => event({ traceId, sessionId: session(i) }));

const send = (key: string, events: unknown[], ip = '203.0.113.1') =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN, 'cf-connecting-ip': ip }, json: { events } });

async function expect429(res: Response, field: string) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await res.json()).toMatchObject({ error: { code: 'rate_limited', field } });
}

describe('rate limits', () => {
  it('limits one session, answering 429 with Retry-After and storing nothing of the refused batch', async () => {
    const p = await newProject();
    const t = trace();
    const session = `flood-${crypto.randomUUID()}`;
    for (let i = 0; i < 3; i++) expect((await send(p.keys.write, batch(t.traceId, () => session), `203.0.113.${i + 10}`)).status).toBe(200);
    const before = await counts(p.id);
    await expect429(await send(p.keys.write, batch(t.traceId, () => session, 20), '203.0.113.20'), 'session');
    expect(await counts(p.id)).toEqual(before);
    // Another session of the same project is not affected.
    expect((await send(p.keys.write, batch(t.traceId, () => 'calm', 5), '203.0.113.21')).status).toBe(200);
  });

  it('limits one key across sessions and addresses', async () => {
    const p = await newProject();
    const t = trace();
    for (let i = 0; i < 20; i++) {
      expect((await send(p.keys.write, batch(t.traceId, (j) => `k${i}-${j}`), `203.0.114.${i}`)).status).toBe(200);
    }
    await expect429(await send(p.keys.write, batch(t.traceId, (j) => `late-${j}`), '203.0.114.99'), 'key');
    // Other projects' keys still work.
    const q = await newProject();
    expect((await send(q.keys.write, batch(t.traceId, () => 'other', 1), '203.0.114.100')).status).toBe(200);
  });

  it('limits one IP, counting every request, good or bad', async () => {
    const ip = `203.0.115.${Math.floor(Math.random() * 200)}`;
    const p = await newProject();
    let res: Response | undefined;
    let sent = 0;
    // Buckets refill while the loop runs (200/min is 3.3/s), hence a window rather than exactly 201.
    while (sent < 260 && res?.status !== 429) {
      const key = sent % 2 ? p.keys.write : 'rfw_nope';
      res = await call('/v1/config', { headers: { 'cf-connecting-ip': ip, ...bearer(key) } });
      sent++;
    }
    expect(sent).toBeGreaterThan(200);
    expect(sent).toBeLessThan(230);
    await expect429(res!, 'ip');
    // Another address is not affected.
    expect((await call('/v1/config', { headers: bearer(p.keys.write) })).status).toBe(200);
  });
});
