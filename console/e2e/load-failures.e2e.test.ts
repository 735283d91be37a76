/** A page whose data the collector could not give (a 5xx, too many requests, no connection) says so and asks again from a button, keyboard first. */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { WorstTrace } from '../api/types.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

/** The element that has focus, looking into shadow roots. */
const focusedTag = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.tagName;
  });

/** Each page: its address, the API path its data comes from, and what shows once it has come. */
const PAGES: { name: string; path: (traceId: string) => string; api: (traceId: string) => string; shown: string }[] = [
  { name: 'review', path: () => '/admin/review', api: () => '/v1/admin/review', shown: 'rf-review-page article.item' },
  { name: 'worst', path: () => '/admin/traces', api: () => '/v1/admin/worst-traces', shown: 'rf-worst-page table.worst' },
  { name: 'trace', path: (id) => `/admin/traces/${id}`, api: (id) => `/v1/admin/traces/${id}`, shown: 'rf-trace-page [data-field="answer"]' },
  { name: 'health', path: () => '/admin/health', api: () => '/v1/admin/health', shown: 'rf-health-page [data-field="latest"]' },
  { name: 'documents', path: () => '/admin/documents', api: () => '/v1/admin/documents', shown: 'rf-documents-page section.owners' },
  { name: 'corrections', path: () => '/admin/corrections', api: () => '/v1/admin/corrections', shown: 'rf-corrections-page article.correction' },
  { name: 'prompts', path: () => '/admin/prompts', api: () => '/v1/admin/config', shown: 'rf-prompts-page form' },
  { name: 'models', path: () => '/admin/models', api: () => '/v1/admin/models', shown: 'rf-models-page .serving' },
  {
    name: 'dead letters',
    path: () => '/admin/dead-letters',
    api: () => '/v1/admin/dead-letters',
    shown: 'rf-dead-letters-page [data-field="no-dead-letters"]',
  },
  { name: 'settings', path: () => '/admin/settings', api: () => '/v1/admin/settings', shown: 'rf-settings-page form.settings' },
];

const RATE_LIMITED = '{"error":{"code":"rate_limited","message":"Too many requests for this key; retry in 3 s","field":"key"}}';
const SAID = {
  '503': 'The collector answered 503: restarting',
  '429': 'The collector answered 429: too many requests just now: wait a minute and try again',
  'no connection': 'The collector could not be reached.',
};

describe('a page that could not be loaded', () => {
  for (const [n, p] of PAGES.entries()) {
    // A third of the pages are refused with a 503, a third as too many requests just now, the others find no collector at all.
    const failure = (['503', '429', 'no connection'] as const)[n % 3]!;
    it(`${p.name}: says so after a ${failure} and loads on Try again, focus staying on the page`, async () => {
      const f = fixture();
      const { traces } = await f.admin<{ traces: WorstTrace[] }>('/v1/admin/worst-traces');
      const traceId = traces[0]!.traceId;
      let failed = false;
      const { page, context, problems } = await openConsole(browser(), f, p.path(traceId), {
        routes: (ctx) =>
          ctx.route(
            (url) => url.pathname === p.api(traceId),
            (route) => {
              if (failed || route.request().method() !== 'GET') return route.continue();
              failed = true;
              if (failure === 'no connection') return route.abort('connectionrefused');
              if (failure === '429') return route.fulfill({ status: 429, contentType: 'application/json', body: RATE_LIMITED });
              return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"restarting"}}' });
            },
          ),
      });
      try {
        const again = page.getByRole('button', { name: 'Try again' });
        await again.waitFor();
        const alert = page.locator('[role="alert"]').filter({ has: again });
        expect(await alert.textContent()).toContain(SAID[failure]);
        await again.focus();
        await page.keyboard.press('Enter');
        await page.locator(p.shown).first().waitFor();
        expect(await again.count()).toBe(0);
        expect(await focusedTag(page)).toBe('H1');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});

describe('a page whose code could not be loaded', () => {
  it('says so in place of a blank page, in the reader’s language, and reloads from a button', async () => {
    const f = fixture();
    // A deploy since the tab opened: the review page's chunk is gone under the name this build gave it.
    let gone = true;
    const chunkGone = (ctx: BrowserContext) =>
      ctx.route(
        (url) => /^\/admin\/chunks\/review-page-[^/]+\.js$/.test(url.pathname),
        (route) => (gone ? route.fulfill({ status: 404, body: 'Not found' }) : route.continue()),
      );
    let { page, context, problems } = await openConsole(browser(), f, '/admin/health', { routes: chunkGone });
    try {
      await page.locator('rf-health-page [data-field="latest"]').waitFor();
      await page.getByRole('link', { name: 'Review queue' }).click();
      const reload = page.getByRole('button', { name: 'Reload' });
      await reload.waitFor();
      expect(await page.locator('[role="alert"]').filter({ has: reload }).textContent()).toContain('This page could not be loaded');
      expect(await page.locator('main h1').textContent()).toBe('Review queue');
      // Asking for the chunk again in this document would fail again: the button loads the page afresh.
      gone = false;
      await reload.focus();
      await page.keyboard.press('Enter');
      await page.locator('rf-review-page article.item').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    gone = true;
    ({ page, context, problems } = await openConsole(browser(), f, '/admin/review', { routes: chunkGone, locale: 'zh-CN' }));
    try {
      const reload = page.getByRole('button', { name: '重新加载' });
      await reload.waitFor();
      expect(await page.locator('[role="alert"]').filter({ has: reload }).textContent()).toContain('无法加载此页面');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
