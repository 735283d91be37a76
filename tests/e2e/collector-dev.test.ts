import { describe, expect, it } from 'vitest';
import { collector, keys, newTraceId, site } from './helpers.ts';

// The collector as `npm start` runs it: wrangler dev with the local D1, default limits but per IP.
const post = (events: unknown[], headers: Record<string, string> = {}) =>
  fetch(`${collector()}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys().write}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ events }),
  });

describe('the collector under wrangler dev', () => {
  it('rate-limits a session at its default 600 events a minute, with Retry-After', async () => {
    const sessionId = newTraceId('flood');
    const traceId = newTraceId('flood-trace');
    const batch = () =>
      Array.from({ length: 100 }, () => ({
        eventId: crypto.randomUUID(),
        traceId,
        sessionId,
        signalType: 'answer_dwell',
        detail: { ms: 1500 },
        clientTs: Date.now(),
      }));
    for (let i = 0; i < 6; i++) expect((await post(batch())).status).toBe(200);
    const refused = await post(batch());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited', field: 'session' } });
  });

  it('answers a CORS preflight from the allowed site and not from another', async () => {
    const preflight = (origin: string) =>
      fetch(`${collector()}/v1/events`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
    expect((await preflight(site())).headers.get('access-control-allow-origin')).toBe(site());
    expect((await preflight('https://elsewhere.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
