/** Where the keyboard is after each action: never dropped to the document's body, so Tab goes on from where the reader was. */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { Correction } from '../api/types.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

/** The element that has focus, looking into shadow roots: its tag, then its id or class. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active || active === document.body) return 'BODY';
    return `${active.tagName}${active.id ? `#${active.id}` : ''}${active.className ? `.${String(active.className).split(' ').join('.')}` : ''}`;
  });

const shownItem = (page: Page) => page.locator('rf-review-page article.item').getAttribute('data-item');

describe('review queue focus', () => {
  it('keeps focus on the page when the button pressed becomes disabled (Previous on the first item, Undo with nothing left)', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      await page.keyboard.press('j');
      await expect.poll(() => shownItem(page)).not.toBe(first);
      await page.locator('rf-review-page button[aria-keyshortcuts="k ArrowLeft"]').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => shownItem(page)).toBe(first);
      // Back on the first item, Previous is disabled: the keyboard stays on the item, not the page's body.
      await expect.poll(() => focused(page)).not.toBe('BODY');
      expect(await focused(page)).toBe('ARTICLE.card.item');

      await page.keyboard.press('3');
      await expect.poll(() => shownItem(page)).not.toBe(first);
      await page.locator('rf-review-page button[aria-keyshortcuts="u"]').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => shownItem(page)).toBe(first);
      await expect.poll(() => focused(page)).toBe('ARTICLE.card.item');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('puts focus on an item that comes back, its answer not saved, when the end of the list had it', async () => {
    const f = fixture();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page, context } = await openConsole(browser(), f, '/admin/review', {
      routes: async (ctx) => {
        // A list of one item: answering it reaches the end of the list.
        await ctx.route(
          (url) => url.pathname === '/v1/admin/review',
          async (route) => {
            const res = await route.fetch();
            const body = (await res.json()) as { items: unknown[] };
            return route.fulfill({ response: res, json: { ...body, items: body.items.slice(0, 1) } });
          },
        );
        // The answer is refused once the end message has focus.
        await ctx.route(
          (url) => /^\/v1\/admin\/review\/[^/]+$/.test(url.pathname),
          async (route) => {
            if (route.request().method() !== 'POST') return route.continue();
            await held;
            return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' });
          },
        );
      },
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = await shownItem(page);
      await page.locator('rf-review-page article.item').focus();
      await page.keyboard.press('2');
      await expect.poll(() => focused(page)).toBe('P.card.empty');
      release();
      await expect.poll(() => shownItem(page)).toBe(item);
      await expect.poll(() => focused(page)).toBe('ARTICLE.card.item');
    } finally {
      await context.close();
    }
  });

  it('leaves the note with Esc onto the item, and Esc on a list keeps the list focused', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      await page.keyboard.press('n');
      await expect.poll(() => focused(page)).toBe('TEXTAREA#note');
      await page.keyboard.press('Escape');
      await expect.poll(() => focused(page)).toBe('ARTICLE.card.item');
      // The keys work again at once.
      const item = await shownItem(page);
      await page.keyboard.press('j');
      await expect.poll(() => shownItem(page)).not.toBe(item);

      await page.locator('rf-review-page select').focus();
      await page.keyboard.press('Escape');
      expect(await focused(page)).toBe('SELECT');
      await page.getByLabel('Language').focus();
      await page.keyboard.press('Escape');
      expect(await focused(page)).toBe('SELECT');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('review queue announcements', () => {
  it('tells a screen reader each answer and the item that follows, so answers in a row with the same key are each heard', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const live = page.locator('rf-review-page [role="status"][aria-live="polite"]');
      const query = () => page.locator('rf-review-page [data-field="query"]').textContent();
      const said: string[] = [];
      for (let i = 0; i < 2; i++) {
        const item = await shownItem(page);
        await page.keyboard.press('3');
        await expect.poll(() => shownItem(page)).not.toBe(item);
        said.push((await live.textContent())!);
        expect(said.at(-1)).toBe(
          `Answered Unclear. Item ${i + 2} of the ${await page
            .locator('rf-review-page [data-field="position"]')
            .textContent()
            .then((t) => t!.match(/of the (\d+)/)![1])} loaded: ${await query()}`,
        );
      }
      // The same words twice would be heard once: a live region speaks when its text changes.
      expect(said[1]).not.toBe(said[0]);
      await page.keyboard.press('u');
      await expect.poll(() => live.textContent()).toMatch(/^Answer taken back\. Item 2 of the \d+ loaded: /);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('tells a screen reader the item j and k move to, which changes in place without taking focus', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const live = page.locator('rf-review-page [role="status"][aria-live="polite"]');
      const query = () => page.locator('rf-review-page [data-field="query"]').textContent();
      const first = await shownItem(page);
      await page.keyboard.press('j');
      await expect.poll(() => shownItem(page)).not.toBe(first);
      await expect.poll(() => live.textContent()).toMatch(/^Item 2 of the \d+ loaded: /);
      expect(await live.textContent()).toContain(await query());
      await page.keyboard.press('k');
      await expect.poll(() => shownItem(page)).toBe(first);
      await expect.poll(() => live.textContent()).toMatch(/^Item 1 of the \d+ loaded: /);
      expect(await live.textContent()).toContain(await query());
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('focus across pages', () => {
  it('puts focus on the new page when a link in the page opens another one, instead of the page’s body', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces');
    try {
      const link = page.locator('rf-worst-page table.worst tbody a').first();
      const id = await link.textContent();
      await link.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Trace ${id}` }).waitFor();
      await expect.poll(() => focused(page)).toBe('MAIN#main');
      // Back: the list again, and the keyboard with it.
      await page.goBack();
      await page.locator('rf-worst-page table.worst tbody a').first().waitFor();
      await expect.poll(() => focused(page)).toBe('MAIN#main');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/**
 * The corrections inbox, open, with its first correction (the one each test resolves) and the one
 * after it, where focus goes next. `routes` may answer for the first one before the page opens.
 */
async function openCorrections(routes?: (first: Correction) => (context: BrowserContext) => Promise<unknown>) {
  const f = fixture();
  const inbox: { owners: { corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections');
  const [first, second] = inbox.owners.flatMap((o) => o.corrections);
  expect(second).toBeDefined();
  const opened = await openConsole(browser(), f, '/admin/corrections', { routes: routes?.(first!) });
  const { page } = opened;
  return {
    ...opened,
    f,
    first: first!,
    nextNote: `INPUT#note-${second!.eventId}`,
    item: page.locator(`rf-corrections-page article[data-event="${first!.eventId}"]`),
    status: () => page.locator('rf-corrections-page [role="status"]').textContent(),
    alert: () => page.locator('rf-corrections-page p.error[role="alert"]').textContent(),
  };
}

describe('corrections focus', () => {
  it('moves focus to the next correction’s note once one is resolved, and says it was resolved', async () => {
    const { page, context, problems, item, nextNote, status } = await openCorrections();
    try {
      await item.getByLabel('What was changed').focus();
      await page.keyboard.type('the page was rewritten');
      await page.keyboard.press('Enter');
      await item.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe(nextNote);
      await expect.poll(status).toBe('Correction resolved.');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('resolves a correction once for a double click, and focus goes on to the next one', async () => {
    const { page, context, problems, item, nextNote } = await openCorrections();
    try {
      const sent: string[] = [];
      // The first resolution is held until both clicks are in, as on a server slower than a double click.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/resolve', async (route) => {
        sent.push(route.request().url());
        await held;
        await route.continue();
      });
      await item.getByLabel('What was changed').fill('rewrote the section');
      await item.getByRole('button', { name: 'Resolve' }).dblclick();
      release();
      await item.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page)).toBe(nextNote);
      // The second click came while the first was on its way: it sent nothing and moved nothing.
      await page.waitForTimeout(500);
      expect(sent).toHaveLength(1);
      expect(await focused(page)).toBe(nextNote);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the note of a correction someone resolved meanwhile, says so, and takes it out of the open inbox', async () => {
    const { page, context, problems, f, first, item, nextNote, status, alert } = await openCorrections();
    try {
      await item.waitFor();
      // Another admin, in another tab, resolves it first.
      await f.admin(`/v1/admin/corrections/${encodeURIComponent(first.eventId)}/resolve`, { method: 'POST', json: { note: 'fixed by the docs team' } });
      await item.getByLabel('What was changed').fill('my fix');
      await item.getByRole('button', { name: 'Resolve' }).click();
      await item.waitFor({ state: 'detached' });
      await expect.poll(status).toBe('Someone resolved this correction meanwhile; their note stands.');
      await expect.poll(() => focused(page)).toBe(nextNote);
      expect(await alert()).toBe('');
      const resolved: { owners: { corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections?status=resolved');
      expect(resolved.owners.flatMap((o) => o.corrections).find((c) => c.eventId === first.eventId)?.note).toBe('fixed by the docs team');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes a correction the collector no longer has (erased meanwhile) out of the inbox and says so', async () => {
    // An erasure of its user, in another tab, removed it.
    const { page, context, problems, item, nextNote, status, alert } = await openCorrections(
      (first) => (ctx) =>
        ctx.route(
          (url) => url.pathname === `/v1/admin/corrections/${first.eventId}/resolve`,
          (route) =>
            route.fulfill({
              status: 404,
              contentType: 'application/json',
              body: JSON.stringify({ error: { code: 'correction_not_found', message: 'gone', field: 'eventId' } }),
            }),
        ),
    );
    try {
      await item.getByLabel('What was changed').fill('my fix');
      await item.getByRole('button', { name: 'Resolve' }).click();
      await item.waitFor({ state: 'detached' });
      await expect.poll(status).toBe('This correction no longer exists: it was erased meanwhile.');
      await expect.poll(() => focused(page)).toBe(nextNote);
      expect(await alert()).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('owner rules focus', () => {
  it('keeps focus in the table when a rule is removed, and on a new rule’s pattern when one is added', async () => {
    const f = fixture();
    await f.admin('/v1/admin/owners', {
      method: 'PUT',
      json: {
        owners: [
          { pattern: 'a*', owner: 'A' },
          { pattern: 'b*', owner: 'B' },
        ],
      },
    });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/documents');
    try {
      await page.getByRole('button', { name: 'Remove rule 2' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('button', { name: 'Remove rule 2' }).count()).toBe(0);
      await expect.poll(() => focused(page)).not.toBe('BODY');
      await page.getByRole('button', { name: 'Remove rule 1' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('rf-documents-page [data-field="no-rules"]').waitFor();
      await expect.poll(() => focused(page)).not.toBe('BODY');
      await page.getByRole('button', { name: 'Add a rule' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('INPUT#rule-0-pattern.mono');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('sign-in focus', () => {
  it('puts focus back on the key, marked wrong, when the key is refused after Sign in was pressed', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { signedIn: false });
    try {
      const key = page.getByLabel('Admin key');
      await key.fill('rfa_not_a_real_key_at_all_0000000');
      await page.getByRole('button', { name: 'Sign in' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('alert').first().textContent()).toContain('not accepted');
      await expect.poll(() => focused(page)).toBe('INPUT#key');
      expect(await key.getAttribute('aria-invalid')).toBe('true');
      // Typed again, it is no longer called wrong.
      await page.keyboard.type(f.collector.keys.admin);
      expect(await key.getAttribute('aria-invalid')).toBe('false');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings focus', () => {
  it('puts focus on a prompt just added, and keeps it in the form when a prompt is removed', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/prompts');
    try {
      const add = page.getByRole('button', { name: 'Add a prompt' });
      await add.focus();
      await page.keyboard.press('Enter');
      await page.locator('rf-prompts-page fieldset[data-prompt="0"]').waitFor();
      await expect.poll(() => focused(page)).toBe('INPUT.mono');
      await add.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Remove prompt 2' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('rf-prompts-page fieldset').count()).toBe(1);
      await expect.poll(() => focused(page)).toBe('BUTTON.remove');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('rf-prompts-page fieldset').count()).toBe(0);
      await expect.poll(() => focused(page)).toBe('BUTTON.add');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('worst traces filters on back and forward', () => {
  it('shows the filters of the list shown, not what was typed and never applied', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces?days=7');
    try {
      await page.locator('rf-worst-page table.worst, rf-worst-page p.card').first().waitFor();
      await page.getByLabel('Weighted score below').fill('-0.5');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?days=7&below=-0.5');
      const days = page.locator('rf-worst-page input[name="days"]');
      await days.fill('9');
      await page.goBack();
      await expect.poll(() => new URL(page.url()).search).toBe('?days=7');
      await expect.poll(() => page.getByLabel('Weighted score below').inputValue()).toBe('');
      expect(await days.inputValue()).toBe('7');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('worst traces filter refused', () => {
  it('says beside a filter from the address that the collector refused it, in the reader’s language', async () => {
    const f = fixture();
    for (const [locale, words] of [
      ['en-US', 'must be at least 1'],
      ['zh-CN', '不能小于 1'],
    ] as const) {
      const { page, context, problems } = await openConsole(browser(), f, '/admin/traces?days=0', { locale });
      try {
        const days = page.locator('rf-worst-page input[name="days"]');
        await expect.poll(() => days.getAttribute('aria-invalid')).toBe('true');
        const describedBy = (await days.getAttribute('aria-describedby'))!;
        expect(await page.locator(`rf-worst-page [id="${describedBy}"]`).textContent()).toBe(words);
        expect(await page.locator('rf-worst-page input[name="minSignals"]').getAttribute('aria-invalid')).toBe('false');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('marks every filter from the address the collector refused at once, each beside its field', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/traces?days=0&minSignals=0&limit=abc');
    try {
      const invalid = (name: string) => page.locator(`rf-worst-page input[name="${name}"]`).getAttribute('aria-invalid');
      await expect.poll(() => invalid('days')).toBe('true');
      expect(await invalid('minSignals')).toBe('true');
      expect(await invalid('limit')).toBe('true');
      expect(await invalid('below')).toBe('false');
      expect(await page.locator('rf-worst-page #filter-days-error').textContent()).toBe('must be at least 1');
      expect(await page.locator('rf-worst-page #filter-minSignals-error').textContent()).toBe('must be at least 1');
      expect(await page.locator('rf-worst-page #filter-limit-error').textContent()).toBe('must be a number');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
