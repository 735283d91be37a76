/** The review queue when an item is erased while the reviewer has it (its users' erasure; retention's purge answers the same). */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewItem } from '../api/types.ts';
import { type ConsoleFixture, fetchAgain, openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const shownItem = (page: Page) => page.locator('rf-review-page article.item').getAttribute('data-item');
const itemPath = (id: string) => `/v1/admin/review/${encodeURIComponent(id)}`;

/** The collector's status for one item: 200 while it exists, 404 once erased. */
async function itemStatus(f: ConsoleFixture, id: string): Promise<number> {
  const res = await fetchAgain(`${f.collector.url}${itemPath(id)}`, { headers: { authorization: `Bearer ${f.collector.keys.admin}` } });
  await res.body?.cancel();
  return res.status;
}

/** Erases every user behind an item, as `DELETE /v1/admin/users/:userIdHash` does, until the item is gone. */
async function eraseItem(f: ConsoleFixture, id: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    if ((await itemStatus(f, id)) === 404) return;
    const item = await f.admin<ReviewItem>(itemPath(id));
    const users = new Set<string>();
    for (const traceId of item.traceIds) {
      const { trace } = await f.admin<{ trace: { userIdHash: string | null } | null }>(`/v1/admin/traces/${encodeURIComponent(traceId)}`);
      if (trace?.userIdHash) users.add(trace.userIdHash);
    }
    for (const user of users) {
      // One call erases as much as its budget allows; `done: false` asks for another.
      while (!(await f.admin<{ done: boolean }>(`/v1/admin/users/${encodeURIComponent(user)}`, { method: 'DELETE' })).done);
    }
  }
  throw new Error(`review item ${id} outlived the erasure of its users`);
}

/** Waits for the page's answer (or undo) for an item to be answered with `status`. */
const answered = (page: Page, id: string, status: number) =>
  page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === itemPath(id) && r.status() === status);

describe('review queue, an item erased meanwhile', () => {
  it('takes an item answered after it was erased off the list, says so once, and goes on to the next; its note is not kept as unsaved', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = (await shownItem(page))!;
      await eraseItem(f, item);
      await page.locator('rf-review-page #note').fill('Off topic');
      // Esc leaves the note, where the answer keys work again.
      await page.keyboard.press('Escape');
      const refused = answered(page, item, 404);
      await page.keyboard.press('2');
      await refused;
      const alert = page.locator('rf-review-page p.error[role="alert"]');
      await expect.poll(() => alert.textContent()).toContain('This item no longer exists');
      // It is not put back: the reviewer is on the next item, and there is none before it.
      const next = (await shownItem(page))!;
      expect(next).not.toBe(item);
      await page.keyboard.press('k');
      expect(await shownItem(page)).toBe(next);
      expect(await page.locator('rf-review-page button.undo').isDisabled()).toBe(true);
      // The next item (the seed's has other users) answered as usual: the alert, about the item gone, goes.
      expect(await itemStatus(f, next)).toBe(200);
      const saved = answered(page, next, 200);
      await page.keyboard.press('1');
      await saved;
      await expect.poll(() => alert.textContent()).toBe('');
      expect(await shownItem(page)).not.toBe(item);
      // The note typed for the item gone can never be saved: signing out does not ask about it.
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.message());
        void d.accept();
      });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('rf-sign-in-page').waitFor();
      expect(asked).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes an item whose answer is taken back after it was erased off the list, with nothing left to take back', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = (await shownItem(page))!;
      const saved = answered(page, item, 200);
      await page.keyboard.press('1');
      await saved;
      const next = (await shownItem(page))!;
      expect(next).not.toBe(item);
      await eraseItem(f, item);
      const refused = answered(page, item, 404);
      await page.keyboard.press('u');
      await refused;
      await expect.poll(() => page.locator('rf-review-page p.error[role="alert"]').textContent()).toContain('This item no longer exists');
      // Not left shown as answered, to be taken back again and refused again: the reviewer is back where they were.
      await expect.poll(() => shownItem(page)).toBe(next);
      expect(await page.locator('rf-review-page button.undo').isDisabled()).toBe(true);
      await page.keyboard.press('k');
      expect(await shownItem(page)).toBe(next);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
