import type { Response as PwResponse, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCollector, startLocalCollector } from '../../scripts/local-collector.ts';
import { uuidv7 } from '../../shared/ids.ts';
import { callWidget, FAST, goOffline, newTraceId, ofType, outbox, pending, type StoredEvent, site, useBrowser } from './helpers.ts';
import { gotoHostPage } from './host-page.ts';
import { watchOutput } from './page-output.ts';

const browser = useBrowser();

/**
 * Its own collector, with a session limit of 60 events a minute (one a second), so that a session
 * whose bucket is spent has its few events held for a few seconds; the suite's keeps the default.
 */
const SESSION_PER_MIN = 60;
let rf: LocalCollector;
beforeAll(async () => {
  rf = await startLocalCollector({ origins: [site()], vars: { RATE_LIMIT_SESSION_PER_MIN: String(SESSION_PER_MIN), RATE_LIMIT_IP_PER_MIN: '100000' } });
});
afterAll(async () => {
  await rf?.stop();
});

const post = (body: unknown) =>
  fetch(`${rf.url}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${rf.keys.write}`, 'content-type': 'application/json', origin: site() },
    body: JSON.stringify(body),
  });

async function stored(traceId: string): Promise<StoredEvent[]> {
  const res = await fetch(`${rf.url}/v1/traces/${encodeURIComponent(traceId)}`, { headers: { authorization: `Bearer ${rf.keys.admin}` } });
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

describe('events a session over its rate limit had held back', () => {
  it('stay in the IndexedDB outbox while the other session’s are stored, and are stored once after the Retry-After', async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    page.setDefaultNavigationTimeout(30_000);
    const output = watchOutput(page);
    // Fast retries, but a longest wait (which caps a Retry-After) above the few seconds asked.
    const options = { transport: { ...FAST.transport, backoff: { baseMs: 200, maxMs: 10_000 } } };
    await gotoHostPage(page, { site: site(), endpoint: rf.url, writeKey: rf.keys.write, options });
    const flood = { traceId: newTraceId('held-flood'), sessionId: newTraceId('s-flood') };
    const quiet = { traceId: newTraceId('held-quiet'), sessionId: newTraceId('s-quiet') };
    const addAnswer = (a: { traceId: string; sessionId: string }) =>
      page.evaluate((x) => (window as unknown as { addAnswer: (a: unknown) => Promise<boolean> }).addAnswer(x), a);
    // Recorded offline: both sessions' events wait together in the outbox, none sent yet.
    await goOffline(page, context);
    await addAnswer(flood);
    await addAnswer(quiet);
    for (let i = 0; i < 3; i++) await callWidget(page, flood.traceId, 'reportCopy', 10 + i);
    for (let i = 0; i < 2; i++) await callWidget(page, quiet.traceId, 'reportCopy', 20 + i);
    await expect.poll(async () => (await outbox(page)).filter((i) => i.event.signalType === 'copy_answer').length).toBe(5);
    const floodIds = (await outbox(page)).filter((i) => i.event.sessionId === flood.sessionId && i.event.signalType === 'copy_answer').map((i) => i.id);
    expect(floodIds).toHaveLength(3);

    /** The events of each POST the page makes, and when it was made. */
    const posts: { at: number; ids: string[] }[] = [];
    let spent: number | undefined;
    await context.route(`${rf.url}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posts.push({ at: Date.now(), ids: JSON.parse(route.request().postData()!).events.map((e: { eventId: string }) => e.eventId) });
      // Right before the page's first batch, another page of the flooding session spends its whole minute.
      if (posts.length === 1) {
        const spend = Array.from({ length: SESSION_PER_MIN }, (_, i) => ({
          eventId: uuidv7(),
          traceId: newTraceId('held-spend'),
          sessionId: flood.sessionId,
          signalType: 'answer_dwell',
          detail: { ms: 1000 + i },
          clientTs: Date.now(),
        }));
        spent = (await post({ events: spend })).status;
      }
      return route.continue();
    });
    const answers: { at: number; status: number; retryAfter: number; body: any }[] = [];
    page.on('response', async (r: PwResponse) => {
      if (r.url() !== `${rf.url}/v1/events` || r.request().method() !== 'POST') return;
      const at = Date.now();
      answers.push({ at, status: r.status(), retryAfter: Number(r.headers()['retry-after']), body: await r.json().catch(() => null) });
    });
    await context.setOffline(false);

    // The first batch: the quiet session's events stored, the flooding session's held back.
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(1);
    expect(spent).toBe(200);
    const [held] = answers;
    expect(held!.status).toBe(429);
    expect(held!.retryAfter).toBeGreaterThanOrEqual(2);
    const byId = new Map(held!.body.results.map((r: { id: string; status: string }) => [r.id, r.status]));
    for (const id of floodIds) expect(byId.get(id)).toBe('rate_limited');
    await expect.poll(async () => ofType(await stored(quiet.traceId), 'copy_answer').length).toBe(2);
    // Held in the real outbox, the rest of their batch gone from it.
    await expect.poll(async () => (await outbox(page)).filter((i) => i.event.signalType === 'copy_answer').map((i) => i.id)).toEqual(floodIds);
    expect(ofType(await stored(flood.traceId), 'copy_answer')).toEqual([]);

    // After the wait, sent again and stored once each.
    await expect
      .poll(async () => ofType(await stored(flood.traceId), 'copy_answer').map((e) => e.eventId), { timeout: 15_000 })
      .toEqual(expect.arrayContaining(floodIds));
    const events = await stored(flood.traceId);
    expect(ofType(events, 'copy_answer')).toHaveLength(3);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    // Sent twice: held, then once after the collector's Retry-After, which was long enough.
    const sends = posts.filter((p) => p.ids.includes(floodIds[0]!));
    expect(sends).toHaveLength(2);
    expect(sends[1]!.at - held!.at).toBeGreaterThanOrEqual(held!.retryAfter * 1000 - 300);
    await expect.poll(() => pending(page)).toBe(0);
    expect(ofType(await stored(quiet.traceId), 'copy_answer')).toHaveLength(2);
    expect((await output.settled()).errors).toEqual([]);
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
