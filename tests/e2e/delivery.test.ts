import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addAnswer,
  callWidget,
  collector,
  eventually,
  FAST,
  flush,
  goOffline,
  gotoHost,
  keys,
  newTraceId,
  ofType,
  openHost,
  outbox,
  pending,
  setVisibility,
  site,
  storedEvents,
  useBrowser,
  widget,
} from './helpers.ts';
import { hostReady } from './host-page.ts';
import { beaconMarker, isBeaconMarker } from './markers.ts';
import { watchOutput } from './page-output.ts';

const browser = useBrowser();

const vote = (page: Page, traceId: string, name = 'Helpful') => widget(page, traceId).getByRole('button', { name, exact: true }).click();

const isEventsPost = (r: Request) => r.url() === `${collector()}/v1/events` && r.method() === 'POST';
const cors = { 'access-control-allow-origin': '', 'access-control-expose-headers': 'Retry-After' };
const corsHeaders = () => ({ ...cors, 'access-control-allow-origin': site(), 'content-type': 'application/json' });

/** Answers the first POST of events with `first` and lets the others through; when each was sent. */
async function firstPostAnswered(context: BrowserContext, first: Parameters<Route['fulfill']>[0]): Promise<number[]> {
  const posts: number[] = [];
  await context.route(`${collector()}/v1/events`, async (route: Route) => {
    if (route.request().method() !== 'POST') return route.continue();
    posts.push(Date.now());
    return posts.length > 1 ? route.continue() : route.fulfill(first);
  });
  return posts;
}

/** A page whose outbox holds 3 events offline, after dropping 2 for room: its count waits to be reported. */
async function twoDroppedOffline(name: string) {
  const { page, context } = await openHost(browser(), { options: { outboxCap: 3 } });
  const traceId = newTraceId(name);
  await addAnswer(page, { traceId });
  await goOffline(page, context);
  for (let i = 0; i < 5; i++) await callWidget(page, traceId, 'reportCopy', 10 + i);
  await expect.poll(() => pending(page)).toBe(3);
  return { page, context, traceId };
}

describe('the outbox and delivery', () => {
  it('redacts before anything is stored: the IndexedDB outbox holds no PII', async () => {
    const { page, context } = await openHost(browser());
    await goOffline(page, context);
    const traceId = newTraceId('pii');
    await addAnswer(page, { traceId });
    await callWidget(page, traceId, 'submitCorrection', 'Mail me at ann@corp.example or 4111 1111 1111 1111');
    await expect.poll(async () => (await outbox(page)).filter((i) => i.event.signalType === 'correction').length).toBe(1);
    const item = (await outbox(page)).find((i) => i.event.signalType === 'correction');
    expect(item.event.detail).toEqual({ text: 'Mail me at [EMAIL] or [CARD]' });
    expect(JSON.stringify(await outbox(page))).not.toContain('ann@corp');
    await context.close();
  });

  it('keeps events recorded offline across a closed tab and delivers them exactly once on the next visit', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('offline');
    await addAnswer(page, { traceId });
    await goOffline(page, context);
    await vote(page, traceId);
    await callWidget(page, traceId, 'reportRegenerate');
    await callWidget(page, traceId, 'reportCopy', 120);
    await expect.poll(() => pending(page)).toBeGreaterThanOrEqual(3);
    // The tab is closed while offline: its page-hide beacon cannot leave.
    await page.goto('about:blank');
    await page.close();
    await context.setOffline(false);
    // Back online, a beacon from a page of the site without the widget: once it is stored, the
    // closed tab's would have been too.
    const next = await context.newPage();
    await next.goto(`${site()}/tests/e2e/pages/blank.html`);
    await beaconMarker(next);
    expect(await storedEvents(traceId)).toEqual([]);

    await gotoHost(next); // the next visit; no answer needs to be on it
    const events = await eventually(traceId, (ev) => {
      expect(
        ev
          .map((e) => e.signalType)
          .filter((t) => t !== 'web_vitals')
          .sort(),
      ).toEqual(['copy_answer', 'regenerate', 'thumbs_up']);
      return ev;
    });
    await expect.poll(() => pending(next)).toBe(0);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    await context.close();
  });

  it('survives a reload while the collector is unreachable, then delivers on `online` exactly once', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('reload');
    await addAnswer(page, { traceId });
    // The collector is unreachable, but for beacon markers.
    await context.route(`${collector()}/**`, (route) => (isBeaconMarker(route.request()) ? route.continue() : route.abort('internetdisconnected')));
    await vote(page, traceId, 'Not helpful');
    await widget(page, traceId).getByRole('button', { name: 'Incomplete' }).click();
    await expect.poll(() => pending(page)).toBeGreaterThanOrEqual(2);
    await page.reload();
    await hostReady(page);
    const waiting = await outbox(page);
    expect(
      waiting
        .filter((i) => i.event.traceId === traceId && i.event.signalType !== 'web_vitals')
        .map((i) => i.event.signalType)
        .sort(),
    ).toEqual(['attribution', 'thumbs_down']);
    // Sent after the reload's page-hide beacon: once it is stored, that one would have been too.
    await beaconMarker(page);
    expect(await storedEvents(traceId)).toEqual([]);
    await context.unroute(`${collector()}/**`);
    await context.setOffline(true);
    await page.waitForTimeout(200);
    await context.setOffline(false); // fires `online`: delivery starts without waiting for the backoff
    const events = await eventually(
      traceId,
      (ev) => {
        expect(
          ev
            .map((e) => e.signalType)
            .filter((t) => t !== 'web_vitals')
            .sort(),
        ).toEqual(['attribution', 'thumbs_down']);
        return ev;
      },
      5_000,
    );
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    await context.close();
  });

  it('retries after a 500, and after a 429 waits as long as Retry-After says', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('retry');
    await addAnswer(page, { traceId });
    const posts: { at: number; status: number }[] = [];
    let answered = 0;
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const n = answered++;
      const at = Date.now();
      if (n === 0) {
        posts.push({ at, status: 500 });
        return route.fulfill({ status: 500, headers: corsHeaders(), body: '{"error":{"code":"internal","message":"boom"}}' });
      }
      if (n === 1) {
        posts.push({ at, status: 429 });
        return route.fulfill({
          status: 429,
          headers: { ...corsHeaders(), 'retry-after': '2' },
          body: '{"error":{"code":"rate_limited","message":"slow down","field":"session"}}',
        });
      }
      posts.push({ at, status: 200 });
      return route.continue();
    });
    await vote(page, traceId);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 15_000);
    expect(posts.map((p) => p.status)).toEqual([500, 429, 200]);
    expect(posts[2]!.at - posts[1]!.at).toBeGreaterThanOrEqual(1_900);
    await context.close();
  });

  it('waits no longer than its longest backoff for a Retry-After too far off to wait for', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('far-off');
    await addAnswer(page, { traceId });
    // Past what a timer can hold (2^31 ms): taken as it is, the timer would fire at once, again and again.
    const posts = await firstPostAnswered(context, {
      status: 429,
      headers: { ...corsHeaders(), 'retry-after': '99999999' },
      body: '{"error":{"code":"rate_limited","message":"later"}}',
    });
    await vote(page, traceId);
    // The test page's longest backoff is 2 s.
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 15_000);
    expect(posts).toHaveLength(2);
    expect(posts[1]! - posts[0]!).toBeGreaterThanOrEqual(1_900);
    await context.close();
  });

  it('keeps the default longest backoff when the page sets only the first wait: a failing collector is not retried at once, again and again', async () => {
    // Filled in shallowly, this backoff would have no longest wait: every wait NaN, a timer that fires at once.
    const { page, context } = await openHost(browser(), { options: { transport: { flushDelayMs: 50, backoff: { baseMs: 300 } } } });
    const traceId = newTraceId('part-backoff');
    await addAnswer(page, { traceId });
    const posts: number[] = [];
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posts.push(Date.now());
      return route.fulfill({ status: 503, headers: corsHeaders(), body: '{"error":{"code":"unavailable","message":"down"}}' });
    });
    await vote(page, traceId);
    await expect.poll(() => posts.length).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(1_000);
    // Waits of 150-300 ms, then doubling: a few tries in this time, not hundreds.
    expect(posts[1]! - posts[0]!).toBeGreaterThanOrEqual(140);
    expect(posts.length).toBeLessThanOrEqual(6);
    await context.close();
  });

  it('gives up on a batch left unanswered (a hung proxy) and sends it again', async () => {
    const timeoutMs = 1_000;
    const { page, context } = await openHost(browser(), { options: { transport: { ...FAST.transport, timeoutMs } } });
    const traceId = newTraceId('hung');
    await addAnswer(page, { traceId });
    /** When each POST of events was sent, and the ids it carried. */
    const posts: { at: number; ids: string[] }[] = [];
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      posts.push({ at: Date.now(), ids: JSON.parse(route.request().postData()!).events.map((e: { eventId: string }) => e.eventId) });
      // The first is never answered; the next go through.
      if (posts.length > 1) return route.continue();
    });
    await vote(page, traceId);
    const [stored] = await eventually(traceId, (ev) => {
      expect(ofType(ev, 'thumbs_up')).toHaveLength(1);
      return ofType(ev, 'thumbs_up');
    });
    expect(posts[0]!.ids).toContain(stored!.eventId);
    expect(posts[1]!.ids).toContain(stored!.eventId);
    // Sent again after the timeout, not at once (a retry's wait is 150-300 ms). Half of it: on a busy
    // machine the first request reaches this route late, and the gap seen here shrinks.
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(timeoutMs / 2);
    await context.close();
  });

  it('sends without a timeout when the host sets it to 0', async () => {
    const { page, context } = await openHost(browser(), { options: { transport: { ...FAST.transport, timeoutMs: 0 } } });
    const traceId = newTraceId('no-timeout');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    // Answered and confirmed: a request aborted as it is sent can still reach the collector.
    await expect.poll(() => pending(page)).toBe(0);
    await context.close();
  });

  it.each([
    { what: 'a 2xx captive portal’s page', status: 200 },
    { what: 'a proxy asking to sign in (407)', status: 407 },
    { what: 'a firewall’s refusal page (403)', status: 403 },
    // JSON with an error of another shape: Google's gateways answer with a numeric code.
    { what: 'an API gateway’s JSON refusal (403)', status: 403, json: { error: { code: 403, message: 'Forbidden', status: 'PERMISSION_DENIED' } } },
  ])('keeps a batch that $what answered instead of the collector, and sends it again', async ({ what, status, json }) => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId(`not-ours-${status}-${json ? 'json' : 'html'}`);
    await addAnswer(page, { traceId });
    const posts = await firstPostAnswered(context, {
      status,
      headers: { ...corsHeaders(), 'content-type': json ? 'application/json' : 'text/html' },
      body: json ? JSON.stringify(json) : `<html><body>${what}</body></html>`,
    });
    await vote(page, traceId);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 15_000);
    expect(posts).toHaveLength(2);
    await context.close();
  });

  it("gives way to the page's own IndexedDB housekeeping (every database deleted on sign-out), and opens the outbox again after", async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('idb-delete');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    await flush(page); // the outbox is open
    const outcome = await page.evaluate(() =>
      Promise.all(
        ['rag-feedback'].map(
          (name) =>
            new Promise<string>((resolve) => {
              const req = indexedDB.deleteDatabase(name);
              req.onsuccess = () => resolve('deleted');
              req.onerror = () => resolve('error');
              setTimeout(() => resolve('still blocked after 3 s'), 3_000);
            }),
        ),
      ),
    );
    expect(outcome).toEqual(['deleted']);
    await vote(page, traceId, 'Not helpful');
    await flush(page);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_down')).toHaveLength(1), 10_000);
    await context.close();
  });

  it('delivers from memory, without waiting for the page to be hidden, while the outbox cannot be opened (the page holds the database it deletes)', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('idb-hung');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    await flush(page); // the outbox is open
    // The page's own connection stays open: its delete waits for it, and every open after the delete waits too.
    // Once the delete is blocked, the widget has been told and let its connection go: a vote before
    // that would be written through it, and deleted with the database.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const open = indexedDB.open('rag-feedback');
          open.onsuccess = () => {
            indexedDB.deleteDatabase('rag-feedback').onblocked = () => resolve();
          };
        }),
    );
    await vote(page, traceId, 'Not helpful');
    // The outbox's open gives up after 3 s, and delivery from memory may wait for a retry: room for a busy machine.
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_down')).toHaveLength(1), 20_000);
    await expect.poll(() => pending(page)).toBe(0);
    await context.close();
  }, 45_000);

  it('throws nothing into the page when its site data is cleared while the outbox is being read', async () => {
    const { page, context, output } = await openHost(browser());
    const traceId = newTraceId('idb-cleared-reading');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    await flush(page);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    // Reads of the outbox in flight as the data goes: the browser aborts their transactions.
    await page.evaluate(() => {
      for (let i = 0; i < 300; i++) void (window as any).RagFeedback.pending();
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: site(), storageTypes: 'indexeddb' });
    await expect.poll(() => pending(page)).toBe(0);
    expect((await output.settled()).errors).toEqual([]);
    await context.close();
  });

  it('opens the outbox again after the browser closed it (site data cleared), and delivers what follows', async () => {
    const { page, context, output } = await openHost(browser(), { options: { debug: true } });
    const first = newTraceId('idb-closed-1');
    await addAnswer(page, { traceId: first });
    await vote(page, first);
    await flush(page);
    await eventually(first, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: site(), storageTypes: 'indexeddb' });
    const second = newTraceId('idb-closed-2');
    await addAnswer(page, { traceId: second });
    await vote(page, second);
    await flush(page);
    await flush(page);
    await eventually(second, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 10_000);
    expect((await output.settled()).errors).toEqual([]);
    await context.close();
  });

  it('keeps delivering to its collector while another in the outbox cannot be reached (a retired endpoint), which waits its turn', async () => {
    // The retired collector's first wait, 5 to 10 s, is longer than the live one's events are given.
    const { page, context } = await openHost(browser(), { options: { transport: { flushDelayMs: 50, backoff: { baseMs: 10_000, maxMs: 60_000 } } } });
    const retired = 'https://retired.example';
    const tries: number[] = [];
    await context.route(`${retired}/**`, (route: Route) => {
      if (route.request().method() === 'POST') tries.push(Date.now());
      return route.abort('connectionrefused');
    });
    const old = newTraceId('retired');
    await addAnswer(page, { traceId: old, attrs: { endpoint: retired } });
    await vote(page, old);
    await expect.poll(() => tries.length).toBe(1);
    const live = newTraceId('live');
    await addAnswer(page, { traceId: live });
    await vote(page, live);
    await eventually(live, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 4_000);
    expect(tries).toHaveLength(1);
    const kept = await outbox(page);
    expect(kept.map((i) => i.endpoint)).toEqual(kept.map(() => retired));
    expect(kept.map((i) => i.event.signalType)).toContain('thumbs_up');
    await context.close();
  });

  // Where IndexedDB cannot be opened (storage blocked by the browser's settings), or will not store (full).
  it.each([
    {
      storage: 'blocked',
      brokenIndexedDB: () => {
        IDBFactory.prototype.open = () => {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        };
      },
    },
    {
      storage: 'full',
      brokenIndexedDB: () => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      },
    },
  ])('delivers from memory where storage is $storage, retrying as usual, without waiting for the page to be hidden', async ({ storage, brokenIndexedDB }) => {
    const context = await browser().newContext();
    await context.addInitScript(brokenIndexedDB);
    const posts = await firstPostAnswered(context, { status: 503, headers: corsHeaders(), body: '{"error":{"code":"unavailable","message":"down"}}' });
    // A retry that waits long enough to see what waits.
    const { page } = await openHost(browser(), { context, options: { transport: { flushDelayMs: 50, backoff: { baseMs: 1_500, maxMs: 2_000 } } } });
    const traceId = newTraceId(`idb-${storage}`);
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    // Waiting in memory is waiting all the same.
    await expect.poll(() => pending(page)).toBeGreaterThanOrEqual(1);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 5_000);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => pending(page)).toBe(0);
    await context.close();
  });

  // A sandboxed frame has an opaque origin: the browser denies it Web Locks (and IndexedDB).
  it('delivers by fetch, without waiting for the page to be hidden, from a sandboxed frame that is denied Web Locks', async () => {
    const context = await browser().newContext();
    const sent: string[] = [];
    // The frame's requests carry `Origin: null`, which no project can list: they reach the collector from the site.
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push(route.request().resourceType());
      const response = await route.fetch({ headers: { ...route.request().headers(), origin: site() } });
      await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
    });
    const page = await context.newPage();
    const output = watchOutput(page);
    await page.goto(`${site()}/tests/e2e/pages/blank.html`);
    const params = new URLSearchParams({ build: 'iife', endpoint: collector(), key: keys().write, options: JSON.stringify(FAST) });
    await page.evaluate((src) => {
      const frame = document.createElement('iframe');
      frame.sandbox.add('allow-scripts');
      frame.src = src;
      document.body.append(frame);
    }, `${site()}/tests/e2e/pages/host.html?${params}`);
    await expect.poll(() => page.frames().length).toBe(2);
    const frame = page.frames()[1]!;
    await frame.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    expect(await frame.evaluate(() => navigator.locks.request('probe', () => 'granted').catch((e: Error) => e.name))).toBe('SecurityError');
    const traceId = newTraceId('sandboxed');
    await frame.evaluate((a) => (window as unknown as { addAnswer: (a: unknown) => Promise<boolean> }).addAnswer(a), { traceId });
    await frame.locator(`rag-feedback[trace-id="${traceId}"]`).getByRole('button', { name: 'Helpful', exact: true }).click();
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 8_000);
    expect(new Set(sent)).toEqual(new Set(['fetch']));
    expect((await output.settled()).console.filter((m) => m.includes('flush failed'))).toEqual([]);
    await context.close();
  });

  // Chromium rejects a lock request from a document that is not fully active (one detached, or in
  // the back/forward cache) with an InvalidStateError: not a page without Web Locks.
  it('sends nothing without the lock while the lock request fails with an InvalidStateError, and delivers once it succeeds', async () => {
    const context = await browser().newContext();
    await context.addInitScript(() => {
      const w = window as unknown as { lockFails: boolean; lockFailures: number };
      const request = LockManager.prototype.request as (...args: unknown[]) => Promise<unknown>;
      w.lockFails = true;
      w.lockFailures = 0;
      LockManager.prototype.request = function (this: LockManager, ...args: unknown[]) {
        if (!w.lockFails) return request.apply(this, args);
        w.lockFailures++;
        return Promise.reject(new DOMException('The document is not fully active.', 'InvalidStateError'));
      } as LockManager['request'];
    });
    const sent: number[] = [];
    await context.route(`${collector()}/v1/events`, (route: Route) => {
      if (route.request().method() === 'POST' && route.request().resourceType() === 'fetch') sent.push(Date.now());
      return route.continue();
    });
    const { page, output } = await openHost(browser(), { context, options: { debug: true } });
    const traceId = newTraceId('lock-inactive');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    const failures = () => page.evaluate(() => (window as unknown as { lockFailures: number }).lockFailures);
    await expect.poll(failures).toBeGreaterThanOrEqual(1);
    await page.waitForTimeout(500); // a drain without the lock would have sent by now
    expect(sent).toEqual([]);
    // A failed flush is retried after the first backoff (200 ms), asking for the lock again.
    await expect.poll(failures).toBeGreaterThanOrEqual(3);
    expect(sent).toEqual([]);
    expect((await outbox(page)).filter((i) => i.event.traceId === traceId).map((i) => i.event.signalType)).toContain('thumbs_up');
    expect((await output.settled()).console.filter((m) => m.includes('flush failed')).length).toBeGreaterThan(0);

    await page.evaluate(() => {
      (window as unknown as { lockFails: boolean }).lockFails = false;
    });
    const events = await eventually(traceId, (ev) => {
      expect(ofType(ev, 'thumbs_up')).toHaveLength(1);
      return ev;
    });
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    await expect.poll(() => pending(page)).toBe(0);
    expect((await output.settled()).errors).toEqual([]);
    await context.close();
  });

  it('delivers by fetch, without waiting for the page to be hidden, where the browser has no Web Locks (an insecure context)', async () => {
    const context = await browser().newContext();
    await context.addInitScript(() => {
      delete (Navigator.prototype as { locks?: LockManager }).locks;
    });
    const sent: string[] = [];
    await context.route(`${collector()}/v1/events`, (route: Route) => {
      if (route.request().method() === 'POST') sent.push(route.request().resourceType());
      return route.continue();
    });
    const { page, output } = await openHost(browser(), { context, options: { debug: true } });
    expect(await page.evaluate(() => 'locks' in navigator)).toBe(false);
    const traceId = newTraceId('lockless');
    await addAnswer(page, { traceId });
    await vote(page, traceId);
    await eventually(traceId, (ev) => expect(ofType(ev, 'thumbs_up')).toHaveLength(1), 8_000);
    expect(new Set(sent)).toEqual(new Set(['fetch']));
    const { errors, console } = await output.settled();
    expect(errors).toEqual([]);
    expect(console.filter((m) => m.includes('flush failed'))).toEqual([]);
    await context.close();
  });

  it('drops an event the collector rejects (400) instead of retrying it forever', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('bad');
    await addAnswer(page, { traceId });
    /** The signal types of each POST, in order. */
    const posts: string[][] = [];
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const events = JSON.parse(route.request().postData()!).events;
      posts.push(events.map((e: any) => e.signalType));
      const results = events.map((e: any, index: number) => ({ index, id: e.eventId, status: 'rejected', field: `events[${index}].detail`, reason: 'bad' }));
      return route.fulfill({
        status: 400,
        headers: corsHeaders(),
        body: JSON.stringify({
          error: { code: 'invalid_event', message: 'bad', field: 'events[0].detail' },
          accepted: 0,
          duplicate: 0,
          rejected: events.length,
          results,
        }),
      });
    });
    await vote(page, traceId);
    await expect.poll(() => posts.length).toBe(1);
    await expect.poll(() => pending(page)).toBe(0);
    // A marker recorded after the drop, through the same outbox: a vote kept for retrying would
    // travel before it or with it.
    await callWidget(page, traceId, 'reportCopy', 1);
    await flush(page);
    await expect.poll(() => posts.flat()).toContain('copy_answer');
    expect(posts.flat().filter((type) => type === 'thumbs_up')).toHaveLength(1);
    await context.close();
  });

  // In IndexedDB, or in memory where IndexedDB will not store (full).
  it.each([
    { where: 'the outbox', fullStorage: false },
    { where: 'memory where storage is full', fullStorage: true },
  ])('caps the events waiting in $where, dropping the oldest first, and reports the drop count to the collector once', async ({ fullStorage }) => {
    const context = await browser().newContext();
    if (fullStorage)
      await context.addInitScript(() => {
        IDBObjectStore.prototype.put = () => {
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        };
      });
    const { page } = await openHost(browser(), { context, options: { outboxCap: 3 } });
    const traceId = newTraceId(`cap-${fullStorage ? 'memory' : 'stored'}`);
    await addAnswer(page, { traceId });
    await goOffline(page, context);
    for (let i = 0; i < 5; i++) await callWidget(page, traceId, 'reportCopy', 10 + i);
    await expect.poll(() => pending(page)).toBe(3);
    const bodies: any[] = [];
    page.on('request', (r) => isEventsPost(r) && bodies.push(JSON.parse(r.postData()!)));
    await context.setOffline(false);
    const events = await eventually(traceId, (ev) => {
      expect(ofType(ev, 'copy_answer')).toHaveLength(3);
      return ev;
    });
    expect(
      ofType(events, 'copy_answer')
        .map((e) => e.detail.chars)
        .sort(),
    ).toEqual([12, 13, 14]); // the two oldest went
    await expect.poll(() => pending(page)).toBe(0);
    expect(bodies.map((b) => b.dropped)).toEqual([2]);
    // Reported once: the next batch carries no count.
    await callWidget(page, traceId, 'reportCopy', 20);
    await flush(page);
    await expect.poll(() => bodies.length).toBe(2);
    expect(bodies[1].dropped).toBeUndefined();
    await context.close();
  });

  it.each([-1, 0.5, 2.5])('keeps the default cap when the page gives one that is not a positive whole number (%s)', async (outboxCap) => {
    const { page, context } = await openHost(browser(), { options: { outboxCap } });
    const traceId = newTraceId(`cap-bad-${outboxCap}`);
    await addAnswer(page, { traceId });
    await goOffline(page, context);
    for (let i = 0; i < 5; i++) await callWidget(page, traceId, 'reportCopy', 10 + i);
    await expect.poll(() => pending(page)).toBe(5);
    await context.close();
  });

  it('takes a cap the page sets once the outbox is open (a late `configure`)', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('cap-late');
    await addAnswer(page, { traceId });
    await goOffline(page, context); // once the outbox's code is there
    await page.evaluate(() => (window as any).RagFeedback.configure({ outboxCap: 3 }));
    for (let i = 0; i < 5; i++) await callWidget(page, traceId, 'reportCopy', 10 + i);
    await expect.poll(() => pending(page)).toBe(3);
    await context.close();
  });

  it('beacons an event once as the page is hidden and then goes (`visibilitychange`, then `pagehide`), and again once it was visible', async () => {
    const { page, context } = await openHost(browser());
    const traceId = newTraceId('beacon-once');
    await addAnswer(page, { traceId });
    let fetches = 0;
    /** Page-hide beacons (text/plain) that carried the vote. */
    let beacons = 0;
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      // The outbox's own sends fail, so the vote stays unconfirmed; beacons get through.
      if (request.headers()['content-type']?.startsWith('application/json')) {
        fetches++;
        return route.abort('connectionrefused');
      }
      const { events } = JSON.parse(request.postData()!) as { events: { traceId: string; signalType: string }[] };
      if (events.some((e) => e.traceId === traceId && e.signalType === 'thumbs_up')) beacons++;
      return route.continue();
    });
    await vote(page, traceId);
    await expect.poll(() => fetches).toBeGreaterThanOrEqual(1);
    await setVisibility(page, 'hidden');
    await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide')));
    await beaconMarker(page);
    expect(beacons).toBe(1);
    await setVisibility(page, 'visible');
    await setVisibility(page, 'hidden');
    await beaconMarker(page);
    expect(beacons).toBe(2);
    await context.close();
  });

  it('reports its drop count once when a page-hide beacon had delivered the rest of its events', async () => {
    const { page, context, traceId } = await twoDroppedOffline('cap-beacon');
    // What a page-hide beacon does: the events waiting are stored, without the drop count.
    const stored = await fetch(`${collector()}/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys().write}`, 'content-type': 'application/json', origin: site() },
      body: JSON.stringify({ events: (await outbox(page)).map((i) => i.event) }),
    });
    expect(((await stored.json()) as { accepted: number }).accepted).toBe(3);
    const bodies: any[] = [];
    page.on('request', (r) => isEventsPost(r) && bodies.push(JSON.parse(r.postData()!)));
    await context.setOffline(false);
    // The batch of duplicates carries the count, which the collector takes (the beacon had none)…
    await expect.poll(() => pending(page)).toBe(0);
    expect(bodies.map((b) => b.dropped)).toEqual([2]);
    // …so the next batch carries none.
    await callWidget(page, traceId, 'reportCopy', 20);
    await flush(page);
    await expect.poll(() => bodies.length).toBe(2);
    expect(bodies[1].dropped).toBeUndefined();
    await context.close();
  });

  it('reports its drop count once when the answer to the batch carrying it was lost', async () => {
    const { page, context, traceId } = await twoDroppedOffline('cap-lost-answer');
    const bodies: any[] = [];
    let lost = 0;
    // The collector stores the first batch, and its answer never reaches the page.
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      bodies.push(JSON.parse(route.request().postData()!));
      if (lost++) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    });
    await context.setOffline(false);
    await expect.poll(() => pending(page)).toBe(0);
    // Sent again with the count, which the collector keeps once (its first event is the same)…
    expect(bodies.map((b) => b.dropped)).toEqual([2, 2]);
    expect(bodies[1].events[0].eventId).toBe(bodies[0].events[0].eventId);
    // …and the next batch carries none.
    await callWidget(page, traceId, 'reportCopy', 20);
    await flush(page);
    await expect.poll(() => bodies.length).toBe(3);
    expect(bodies[2].dropped).toBeUndefined();
    await context.close();
  });

  it('reports its drop count once when the outbox could not be written as the batch carrying it was delivered', async () => {
    const { page, context, traceId } = await twoDroppedOffline('cap-remove-failed');
    // The next write fails as on a connection the browser is closing: the delivered events stay stored, and the count with them.
    await page.evaluate(() => {
      const transaction = IDBDatabase.prototype.transaction;
      let fail = true;
      IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<typeof transaction>) {
        if (args[1] === 'readwrite' && fail) {
          fail = false;
          throw new DOMException('The database connection is closing.', 'InvalidStateError');
        }
        return transaction.apply(this, args);
      } as typeof transaction;
    });
    const bodies: any[] = [];
    page.on('request', (r) => isEventsPost(r) && bodies.push(JSON.parse(r.postData()!)));
    await context.setOffline(false);
    await expect.poll(() => pending(page)).toBe(0);
    // The events go again (the collector knows them), the count does not.
    expect(bodies.map((b) => b.dropped)).toEqual([2, undefined]);
    await callWidget(page, traceId, 'reportCopy', 20);
    await flush(page);
    await expect.poll(() => bodies.length).toBe(3);
    expect(bodies[2].dropped).toBeUndefined();
    await context.close();
  });

  it('delivers from two tabs of one origin, every event exactly once, one tab sending at a time', async () => {
    const context = await browser().newContext();
    const { page: a } = await openHost(browser(), { context });
    const { page: b } = await openHost(browser(), { context });
    const traceIds = [newTraceId('tabA'), newTraceId('tabB')];
    let inFlight = 0;
    let maxInFlight = 0;
    await context.route(`${collector()}/v1/events`, async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        const res = await route.fetch();
        await new Promise((r) => setTimeout(r, 100)); // a slow collector, so overlapping sends would show
        await route.fulfill({ response: res });
      } finally {
        inFlight--;
      }
    });
    await context.setOffline(true);
    await addAnswer(a, { traceId: traceIds[0]! });
    await addAnswer(b, { traceId: traceIds[1]! });
    for (let i = 0; i < 6; i++) {
      for (const [page, id] of [
        [a, traceIds[0]!],
        [b, traceIds[1]!],
      ] as const) {
        await callWidget(page, id, 'reportCopy', i + 1);
      }
    }
    await expect.poll(() => pending(a)).toBeGreaterThanOrEqual(12);
    await context.setOffline(false); // both tabs hear `online`
    for (const id of traceIds) {
      const events = await eventually(id, (ev) => {
        expect(ofType(ev, 'copy_answer')).toHaveLength(6);
        return ev;
      });
      expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    }
    expect(maxInFlight).toBe(1);
    // A send still held by the slow route when the context closes must not fail the run afterwards.
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
