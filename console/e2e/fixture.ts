/**
 * The console's browser tests: a throwaway collector under `wrangler dev` serving the console (built
 * once by the suite's global setup) at /admin, filled with the seed's traffic (npm run seed) and
 * tonight's loop run, and pages opened in real Chromium signed in (the admin key in the tab's
 * sessionStorage) or not.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type LocalCollector, startLocalCollector } from '../../scripts/local-collector.ts';
import '../../tests/e2e/provided.ts';
import type { ReviewItem } from '../../shared/admin-api/review.ts';
import type { FieldError } from '../../shared/validation.ts';
import { PAGE_WAIT_MS } from '../../tests/e2e/waits.ts';
import { CONSOLE_VARS, fetchAgain, startSeededCollector } from './seeded-state.ts';

export { fetchAgain };

export interface ConsoleFixture {
  collector: LocalCollector;
  /** Calls the API as a script would, with the admin key unless another is given. */
  admin<T = unknown>(path: string, init?: { method?: string; json?: unknown; key?: string }): Promise<T>;
}

/** Puts a review item's question into the curated eval suite as `id`, its chunk judged relevant, as a team does after the night mined it. */
export async function curate(f: ConsoleFixture, id: string, item: ReviewItem): Promise<void> {
  const { chunkId, sourceDocId, text } = item.chunk;
  await f.admin(`/v1/admin/eval-suite/${id}`, {
    method: 'PUT',
    json: { query: item.query, candidates: [{ chunkId, sourceDocId, text, score: item.score }], judgements: [{ chunkId, relevance: 1 }] },
  });
}

/** The fixture of a started collector: its API called as a script would, with the admin key unless another is given. */
function fixtureOf(collector: LocalCollector): ConsoleFixture {
  const admin = async (path: string, init: { method?: string; json?: unknown; key?: string } = {}) => {
    const res = await fetchAgain(`${collector.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.key ?? collector.keys.admin}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    expect(res.status, `${path}: ${res.status}`).toBeLessThan(300);
    return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
  };
  return { collector, admin };
}

/**
 * Starts one seeded collector for the tests of a file; `prepare` adds a file's own data before the
 * night's run; `origins` are pages allowed to use its write key (a host page with a widget). A file
 * with neither starts from a copy of the suite's seeded state (see seeded-state.ts).
 */
export function useSeededCollector(prepare?: (f: ConsoleFixture) => Promise<void>, options: { origins?: () => string[] } = {}): () => ConsoleFixture {
  let fixture: ConsoleFixture | undefined;
  beforeAll(async () => {
    const collector =
      prepare || options.origins
        ? await startSeededCollector({ origins: options.origins?.() }, async (c) => prepare?.(fixtureOf(c)))
        : await startLocalCollector({ from: inject('seededCollector'), vars: CONSOLE_VARS });
    fixture = fixtureOf(collector);
  }, 180_000);
  afterAll(async () => {
    await fixture?.collector.stop();
  });
  return () => {
    if (!fixture) throw new Error('the collector starts in beforeAll: use it inside a test');
    return fixture;
  };
}

export interface OpenOptions {
  /** Put the admin key in the tab's session storage first, as signing in does. */
  signedIn?: boolean;
  /** Sign in with the viewer key instead. */
  asViewer?: boolean;
  colorScheme?: 'light' | 'dark';
  /** The browser's language. */
  locale?: string;
  /**
   * Routes set on the context before the page opens: interception turned on while the page is
   * already sending can leave one of its requests paused, never seen by the route.
   */
  routes?: (context: BrowserContext) => Promise<unknown>;
}

/**
 * Routes (for `routes`) refusing every save (`PUT`) to `path` with a 400 as the collector words one:
 * `fields` as `refused` gives them at the time, `field` and `message` naming the first. Anything
 * else goes through to the collector.
 */
export const refusingSaves =
  (path: string, code: string, refused: () => FieldError[]) =>
  (context: BrowserContext): Promise<void> =>
    context.route(`**${path}`, (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      const fields = refused();
      return route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code, ...fields[0], fields } }) });
    });

/**
 * Routes (for `routes`) holding every save (`PUT`) to `path` until `release` is called, as a
 * server slower than a double click: `sent` has the If-Match of each save the page sent.
 */
export function holdingSaves(path: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sent: (string | undefined)[] = [];
  const routes = (context: BrowserContext): Promise<void> =>
    context.route(`**${path}`, async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      sent.push(route.request().headers()['if-match']);
      await held;
      await route.continue();
    });
  return { routes, sent, release: () => release() };
}

/**
 * Double-clicks Save under `holdingSaves`, and checks the second click sent nothing, Save saying so
 * while the first was on its way, then that the page said it saved (`status`) and Save is back.
 */
export async function doubleClickSave(page: Page, saves: ReturnType<typeof holdingSaves>, status: string): Promise<void> {
  const save = page.getByRole('button', { name: 'Save' });
  await save.dblclick();
  await expect.poll(() => saves.sent.length).toBe(1);
  expect(await save.getAttribute('aria-disabled')).toBe('true');
  saves.release();
  await page.getByText('Saved.').waitFor();
  await page.waitForTimeout(500);
  expect(saves.sent).toHaveLength(1);
  expect(await page.locator(status).first().textContent()).toBe('Saved.');
  expect(await save.getAttribute('aria-disabled')).toBe('false');
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Script errors and console errors (CSP and Trusted Types violations among them); answers the API gave are not problems. */
  problems: string[];
}

/** Opens the console at `path` in a fresh context. */
export async function openConsole(browser: Browser, f: Pick<ConsoleFixture, 'collector'>, path: string, options: OpenOptions = {}): Promise<ConsolePage> {
  const { signedIn = true, asViewer = false, colorScheme = 'light', locale = 'en-US' } = options;
  const context = await browser.newContext({ colorScheme, locale });
  await options.routes?.(context);
  if (signedIn) {
    // Once per tab, as a sign-in would: a later sign-out must stick across reloads.
    await context.addInitScript(
      (key) => {
        if (!sessionStorage.getItem('rf-console-seeded')) {
          sessionStorage.setItem('rf-console-seeded', '1');
          sessionStorage.setItem('rf-console-admin-key', key);
        }
      },
      f.collector.keys[asViewer ? 'viewer' : 'admin'],
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(PAGE_WAIT_MS);
  page.setDefaultNavigationTimeout(30_000);
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${f.collector.url}${path}`);
  return { context, page, problems };
}
