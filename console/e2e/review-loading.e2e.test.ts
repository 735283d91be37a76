/** The review queue while its lists are on their way: keys pressed and filters changed before a list arrives. */
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewQueue } from '../api/types.ts';
import { PAGE_SIZE } from '../pages/review/review-session.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const LIST = '/v1/admin/review';

/** Requests for a list of the queue, held back until the test lets them through, in the order sent. */
function heldLists() {
  const held: Route[] = [];
  let holding = true;
  return {
    held,
    route: (route: Route) => {
      if (!holding) return route.continue();
      held.push(route);
    },
    /** Lets the list at `n` through and waits for the page to have its answer. */
    async release(page: Page, n: number) {
      const answered = page.waitForResponse((r) => r.request() === held[n]!.request());
      await held[n]!.continue();
      await answered;
    },
    /** Lets every later request through at once. */
    stop() {
      holding = false;
    },
  };
}

/** "Item n of …", or nothing with no item shown. */
const position = (page: Page) =>
  page
    .locator('rf-review-page [data-field="position"]')
    .textContent({ timeout: 500 })
    .catch(() => '');

describe('the review queue while a list loads', () => {
  it('keeps keys pressed before the first page from asking for it again, so the queue goes on past that page', async () => {
    const f = fixture();
    expect((await f.admin<ReviewQueue>(`${LIST}?limit=${PAGE_SIZE + 1}`)).items).toHaveLength(PAGE_SIZE + 1);
    const lists = heldLists();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) => ctx.route((url) => url.pathname === LIST, lists.route),
    });
    try {
      await expect.poll(() => lists.held.length).toBe(1);
      await page.locator('rf-review-page .toolbar').waitFor();
      for (const key of ['j', 'ArrowRight', 'k', 'j']) await page.keyboard.press(key);
      // Time for a request those keys sent to reach the route.
      await page.waitForTimeout(500);
      const asked = lists.held.length;
      // The first page lands first, and only then anything else asked for meanwhile.
      await lists.release(page, 0);
      await page.locator('rf-review-page article.item').waitFor();
      for (let n = 1; n < asked; n++) await lists.release(page, n);
      lists.stop();
      expect(await position(page)).toMatch(/^Item 1 of /);
      for (let n = 2; n <= PAGE_SIZE + 1; n++) {
        await page.keyboard.press('j');
        await expect.poll(() => position(page)).toMatch(new RegExp(`^Item ${n} of `));
      }
      expect(asked).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the status chosen as loading while the list of the one left arrives, not as empty', async () => {
    const f = fixture();
    const lists = heldLists();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) => ctx.route((url) => url.pathname === LIST, lists.route),
    });
    try {
      await expect.poll(() => lists.held.length).toBe(1);
      await page.locator('rf-review-page select').selectOption('held');
      await expect.poll(() => lists.held.length).toBe(2);
      expect(new URL(lists.held[1]!.request().url()).searchParams.get('status')).toBe('held');
      // The waiting list arrives while the held one is still on its way.
      await lists.release(page, 0);
      await page.waitForTimeout(500);
      expect(await page.locator('rf-review-page .empty').count()).toBe(0);
      expect(await page.locator('rf-review-page').locator('p.muted', { hasText: 'Loading…' }).count()).toBe(1);
      lists.stop();
      await lists.release(page, 1);
      await page.locator('rf-review-page article.item, rf-review-page .empty').first().waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('held');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the review queue answered faster than its next page arrives', () => {
  it('tells a screen reader the next items are loading, then the item shown once they land, not that the queue is empty', async () => {
    const f = fixture();
    // The first page goes through; the next ones wait until the test lets them.
    let first = true;
    const lists = heldLists();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === LIST,
          (route) => {
            if (!first) return lists.route(route);
            first = false;
            return route.continue();
          },
        ),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const status = page.locator('rf-review-page [role="status"]');
      // Past the first page's items, with the next one held back.
      for (let n = 0; n < PAGE_SIZE && (await page.locator('rf-review-page article.item').count()); n++) await page.keyboard.press('2');
      await expect.poll(() => page.locator('rf-review-page .card.empty').textContent()).toBe('Loading…');
      expect(await status.textContent()).toBe('Answered Not relevant. Loading…');
      await expect.poll(() => lists.held.length).toBe(1);
      lists.stop();
      await lists.release(page, 0);
      await page.locator('rf-review-page article.item').waitFor();
      const position = await page.locator('rf-review-page [data-field="position"]').textContent();
      const query = await page.locator('rf-review-page [data-field="query"]').textContent();
      await expect.poll(() => status.textContent()).toBe(`${position}: ${query}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('review queue: a link to an item', () => {
  it('says so when the linked item could not be opened, rather than pass the first item off as it', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review?item=rv-no-such-item');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      await expect
        .poll(() => page.locator('rf-review-page p.error[role="alert"]').textContent())
        .toBe('The linked item could not be opened (The collector answered 404: there is no such review item): the list starts at its first item instead.');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
