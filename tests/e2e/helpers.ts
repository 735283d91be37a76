import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { connect } from './chromium.ts';
import './provided.ts';
import { gotoHostPage } from './host-page.ts';
import { watchOutput } from './page-output.ts';

export const collector = () => inject('collector');
export const site = () => inject('site');
export const keys = () => inject('keys');

/**
 * The suite's Chromium for the tests of one file: connected before the first, and the contexts the
 * file opened closed after the last. Call it at the top of the file; the getter gives the browser
 * inside tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await connect(inject('browserEndpoint'));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is connected in beforeAll: use it inside a test');
    return browser;
  };
}

/** Fast delivery for tests: the defaults wait a second and back off from 5 s. */
export const FAST = { transport: { flushDelayMs: 50, backoff: { baseMs: 200, maxMs: 2_000 } } };

export interface HostOptions {
  build?: 'esm' | 'iife';
  /** Options for RagFeedback.configure, merged over FAST. */
  options?: Record<string, unknown>;
  context?: BrowserContext;
}

let traces = 0;
/** A trace id no other test uses. */
export const newTraceId = (label = 't') => `${label}-${Date.now().toString(36)}-${(traces++).toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** Opens the test host page in a fresh context (its own IndexedDB and storage) unless one is given. */
export async function openHost(browser: Browser, { build = 'esm', options = {}, context }: HostOptions = {}) {
  const ctx = context ?? (await browser.newContext());
  const page = await ctx.newPage();
  page.setDefaultTimeout(8_000);
  // A whole page load waits on the server too, which a busy 2-core machine can hold up for seconds.
  page.setDefaultNavigationTimeout(30_000);
  const output = watchOutput(page);
  await gotoHost(page, build, options);
  return { context: ctx, page, output };
}

export const gotoHost = (page: Page, build: 'esm' | 'iife' = 'esm', options: Record<string, unknown> = {}) =>
  gotoHostPage(page, { site: site(), endpoint: collector(), writeKey: keys().write, build, options: { ...FAST, ...options } });

export interface AnswerOptions {
  traceId: string;
  query?: string;
  sessionId?: string;
  html?: string;
  attrs?: Record<string, string>;
}

export const addAnswer = (page: Page, answer: AnswerOptions) =>
  page.evaluate((a) => (window as unknown as { addAnswer: (a: unknown) => Promise<boolean> }).addAnswer(a), answer);

/** The widget for a trace, for clicks inside its shadow root (Playwright pierces open shadow roots). */
export const widget = (page: Page, traceId: string) => page.locator(`rag-feedback[trace-id="${traceId}"]`);

export interface StoredEvent {
  eventId: string;
  traceId: string;
  sessionId: string;
  signalType: string;
  signalValue: number | null;
  signalGroup: string | null;
  superseded: boolean;
  detail: Record<string, unknown>;
  shownMs: number | null;
}

/** Every event the collector stored for a trace (through the admin API). */
export async function storedEvents(traceId: string): Promise<StoredEvent[]> {
  const res = await fetch(`${collector()}/v1/traces/${encodeURIComponent(traceId)}`, { headers: { authorization: `Bearer ${keys().admin}` } });
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

/**
 * Polls the collector until `check` passes on the trace's stored events (or times out with its
 * last failure). `check` asserts what should arrive; one that cannot fail returns at the first
 * poll, so an absence is checked after a marker instead (markers.ts). The wait is long: the first
 * batch of a file, on a machine busy with other test files, has taken more than 10 s to be stored.
 */
export async function eventually<T>(traceId: string, check: (events: StoredEvent[]) => T, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await storedEvents(traceId);
    try {
      return check(events);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export const ofType = (events: StoredEvent[], type: string) => events.filter((e) => e.signalType === type);

/** Makes the page report itself hidden (or visible again), as switching tabs does. */
export const setVisibility = (page: Page, state: 'hidden' | 'visible') =>
  page.evaluate((s) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => s === 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);

/** Sends what waits in the outbox now. */
export const flush = (page: Page) => page.evaluate(() => (window as any).RagFeedback.flush());

/** The raw outbox in IndexedDB, as stored. */
export const outbox = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<any[]>((resolve, reject) => {
        const open = indexedDB.open('rag-feedback');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          // Closed once read: an open connection would hold up the widget's own upgrade or delete.
          const db = open.result;
          const read = db.transaction('outbox');
          read.oncomplete = read.onabort = () => db.close();
          const req = read.objectStore('outbox').getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        };
      }),
  );

/** Events waiting in the page's outbox. */
export const pending = (page: Page) => page.evaluate(() => (window as any).RagFeedback.pending() as Promise<number>);

/**
 * Takes the page's browser offline once the widget's lazily loaded delivery code is there (it is
 * fetched as the widget runs; on a loaded machine that can take a moment), as a user going
 * offline mid-conversation would find it.
 */
export async function goOffline(page: Page, context: BrowserContext): Promise<void> {
  await pending(page);
  await context.setOffline(true);
}

/** Calls a method of the element's JS API, as the chat UI would. */
export const callWidget = (page: Page, traceId: string, method: string, ...args: unknown[]) =>
  page.evaluate(([id, m, a]) => (document.querySelector(`rag-feedback[trace-id="${id}"]`) as any)[m](...a), [traceId, method, args] as const);

/** What has focus inside the element's shadow root: its text and its accessible label. */
export const focusedInWidget = (page: Page, traceId: string) =>
  page.evaluate((id) => {
    const active = document.querySelector(`rag-feedback[trace-id="${id}"]`)!.shadowRoot!.activeElement;
    return { text: active?.textContent?.trim() ?? '', label: active?.getAttribute('aria-label') ?? null };
  }, traceId);

/** Selects the text of `selector` inside the answer and copies it, as a user would with Ctrl+C. */
export async function copyText(page: Page, traceId: string, selector: string) {
  await page.evaluate(
    ({ traceId, selector }) => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector(`rag-feedback[trace-id="${traceId}"] ${selector}`)!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    },
    { traceId, selector },
  );
  await page.keyboard.press('Control+C');
}
