import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { query } from '../../scripts/local-d1-sql.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewQueue } from '../api/types.ts';
import { zhCN } from '../i18n/zh-CN.ts';
import { guessWhyWords } from '../pages/review/guess-why-words.ts';
import { fetchAgain, openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

/** The id of the item on screen. */
const shownItem = (page: Page) => page.locator('rf-review-page article.item').getAttribute('data-item');

/** The class of the element that has focus, looking into shadow roots. */
const focusedClass = () => {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active?.className;
};

/** Presses `key` and waits until another item than `from` is on screen. */
async function pressAndMove(page: Page, key: string, from: string | null): Promise<string | null> {
  await page.keyboard.press(key);
  await expect.poll(() => shownItem(page)).not.toBe(from);
  return shownItem(page);
}

describe('the review queue', () => {
  it('shows one item: the query, the chunk with the query terms marked, rank, score, guess, evidence and its traces', async () => {
    const f = fixture();
    const queue: ReviewQueue = await f.admin('/v1/admin/review?limit=1');
    const first = queue.items[0]!;
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      const item = page.locator('rf-review-page article.item');
      await item.waitFor();
      expect(await item.getAttribute('data-item')).toBe(first.id);
      expect(await item.locator('[data-field="query"]').textContent()).toBe(first.query);
      expect(await item.locator('[data-field="chunk"]').textContent()).toBe(first.chunk.text);
      expect(await item.locator('[data-field="chunk"] mark').count()).toBeGreaterThan(0);
      expect(await item.locator('[data-field="guess-why"]').textContent()).toBe(first.guessWhy);
      expect(await item.locator('[data-field="evidence"] li').allTextContents()).toEqual(first.evidence);
      expect(await item.locator('dl.meta').textContent()).toContain(first.score.toFixed(3));
      // The traces behind it, each a link to its trace view.
      const links = item.locator('.traces a');
      await expect.poll(() => links.count()).toBe(Math.min(first.traceCount, 50));
      expect(await links.first().getAttribute('href')).toBe(`/admin/traces/${encodeURIComponent(first.traceIds[0]!)}`);
      // Progress against the week's budget.
      expect(await page.locator('rf-review-page .progress').textContent()).toContain(`0 of ${queue.budget.itemsPerWeek} reviewed this week`);
      // The address names the item: a reload comes back to it.
      await expect.poll(() => new URL(page.url()).searchParams.get('item')).toBe(first.id);
      // The evidence is worded in the reader's language from its codes, not the API's English lines.
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => item.locator('[data-field="evidence"] li').first().textContent()).toMatch(/^在得分|^被标记|^包含|^用户的更正/);
      // So is why the guess, from its code and numbers.
      const why = guessWhyWords(first.guessWhyCode, zhCN);
      expect(why).not.toBe(first.guessWhy);
      expect(await item.locator('[data-field="guess-why"]').textContent()).toBe(why);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers ten items by keyboard, with a note and an undo; D1 has them and the next run of the job counts them', { timeout: 90_000 }, async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const answers = new Map<string, { verdict: string; note: string | null }>();
      const keys = ['1', '2', '3'] as const;
      const verdictOf = { '1': 'relevant', '2': 'not_relevant', '3': 'unclear' } as const;
      let current = await shownItem(page);

      // The first with a note: n focuses it, Escape leaves it, then one key answers.
      await page.keyboard.press('n');
      await page.keyboard.type('about shipping, not refunds');
      await page.keyboard.press('Escape');
      answers.set(current!, { verdict: 'not_relevant', note: 'about shipping, not refunds' });
      current = await pressAndMove(page, '2', current);

      // An answer taken back: u returns to the item, which waits again.
      const undone = current!;
      current = await pressAndMove(page, '1', current);
      current = await pressAndMove(page, 'u', current);
      expect(current).toBe(undone);
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Answer taken back');

      for (let i = 0; answers.size < 10; i++) {
        // An item shown again (an answer that could not be saved comes back) must not loop until the timeout.
        expect(i, `${answers.size} distinct items after ${i} answers`).toBeLessThan(20);
        const key = keys[i % 3]!;
        answers.set(current!, { verdict: verdictOf[key], note: null });
        current = await pressAndMove(page, key, current);
      }
      expect(await page.locator('rf-review-page .progress').textContent()).toContain('10 of 90 reviewed this week');

      // In D1: answered, with each verdict and the note.
      const ids = [...answers.keys()];
      await expect
        .poll(async () => {
          const rows = await query<{ item_id: string; status: string; verdict: string; note: string | null }>(
            `select item_id, status, verdict, note from review_items where item_id in (${ids.map((id) => `'${id.replace(/'/g, "''")}'`).join(',')})`,
            { persistTo: f.collector.persistTo },
          );
          return Object.fromEntries(rows.map((r) => [r.item_id, { status: r.status, verdict: r.verdict, note: r.note }]));
        })
        .toEqual(Object.fromEntries([...answers].map(([id, a]) => [id, { status: 'answered', ...a }])));

      // The next run of the nightly job (the cron, as wrangler fires it) counts them.
      await query("delete from loop_runs where project_id = 'local'", { persistTo: f.collector.persistTo });
      expect((await fetchAgain(`${f.collector.url}/__scheduled?cron=*/15+*+*+*+*`)).status).toBe(200);
      const health = await f.admin<any>('/v1/admin/health');
      expect(health.latest.metrics.reviewedLastWeek).toBe(10);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes back an answer undone at once: in D1 the item waits again, with no verdict', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = await shownItem(page);
      const sent: number[] = [];
      page.on('response', (res) => {
        if (res.request().method() === 'POST' && new URL(res.url()).pathname === `/v1/admin/review/${encodeURIComponent(item!)}`) sent.push(res.status());
      });
      // Unclear, then undo before the answer has had time to reach the server.
      await page.keyboard.press('3');
      await page.keyboard.press('u');
      await expect.poll(() => shownItem(page)).toBe(item);
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Answer taken back');
      // Both are saved, the undo last. (The answer may meet the dev server's restart mid-request, a
      // 503, and is then sent again before the undo.)
      await expect.poll(() => sent.filter((status) => status === 200).length).toBe(2);
      expect(sent.at(-1)).toBe(200);
      expect(sent.filter((status) => status !== 200 && status !== 503)).toEqual([]);
      const stored = async () =>
        (
          await query<{ status: string; verdict: string | null }>(`select status, verdict from review_items where item_id = '${item!.replace(/'/g, "''")}'`, {
            persistTo: f.collector.persistTo,
          })
        )[0];
      expect(await stored()).toEqual({ status: 'pending', verdict: null });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sends an answer again when the server could not take it just now (503), instead of handing the item back', async () => {
    const f = fixture();
    // Each answer sent, with its status as the route answered it: the first meets a server
    // restarting, the next reaches the collector.
    const sent: { item: string; status: number }[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route('**/v1/admin/review/*', async (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          const answered = decodeURIComponent(new URL(route.request().url()).pathname.split('/').at(-1)!);
          if (sent.length === 0) {
            sent.push({ item: answered, status: 503 });
            return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"restarting"}}' });
          }
          const response = await route.fetch();
          sent.push({ item: answered, status: response.status() });
          return route.fulfill({ response });
        }),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = (await shownItem(page))!;
      await pressAndMove(page, '2', item);
      await expect
        .poll(() => sent)
        .toEqual([
          { item, status: 503 },
          { item, status: 200 },
        ]);
      const [stored] = await query<{ status: string; verdict: string | null }>(
        `select status, verdict from review_items where item_id = '${item.replace(/'/g, "''")}'`,
        { persistTo: f.collector.persistTo },
      );
      expect(stored).toEqual({ status: 'answered', verdict: 'not_relevant' });
      // The reviewer stays on the next item, with no error shown.
      expect(await shownItem(page)).not.toBe(item);
      expect(await page.locator('rf-review-page [role="alert"]').textContent()).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers one item for a held answer key, not the items after it, and undoes one answer for a held undo key', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      // The answers saved, by item: one the dev server dropped (a 503 as its Worker restarts) is sent again, and counts once.
      const posted: string[] = [];
      page.on('response', (r) => {
        if (r.request().method() === 'POST' && r.status() === 200) posted.push(decodeURIComponent(new URL(r.url()).pathname.split('/').at(-1)!));
      });
      // A key held down: one press, then the keyboard's repeats.
      await page.keyboard.down('1');
      await expect.poll(() => shownItem(page)).not.toBe(first);
      const second = await shownItem(page);
      for (let i = 0; i < 4; i++) await page.keyboard.down('1');
      await page.keyboard.up('1');
      await expect.poll(() => posted).toEqual([first]);
      expect(await shownItem(page)).toBe(second);
      const stored = async (id: string) =>
        (
          await query<{ status: string; verdict: string | null }>(`select status, verdict from review_items where item_id = '${id.replace(/'/g, "''")}'`, {
            persistTo: f.collector.persistTo,
          })
        )[0];
      await expect.poll(() => stored(first!)).toEqual({ status: 'answered', verdict: 'relevant' });
      expect((await stored(second!))?.status).toBe('pending');
      expect(posted).toEqual([first]);
      // Undo held down takes back the last answer only, not the one before it too.
      await pressAndMove(page, '2', second);
      await page.keyboard.down('u');
      await expect.poll(() => shownItem(page)).toBe(second);
      for (let i = 0; i < 4; i++) await page.keyboard.down('u');
      await page.keyboard.up('u');
      await expect.poll(() => posted).toEqual([first, second, second]);
      await expect.poll(() => stored(second!)).toEqual({ status: 'pending', verdict: null });
      expect(await stored(first!)).toEqual({ status: 'answered', verdict: 'relevant' });
      // Enter held on the focused Relevant button (which stays focused for the next item) answers once too.
      await page.locator('rf-review-page button.verdict.relevant').focus();
      await page.keyboard.down('Enter');
      await expect.poll(() => shownItem(page)).not.toBe(second);
      const third = await shownItem(page);
      for (let i = 0; i < 4; i++) await page.keyboard.down('Enter');
      await page.keyboard.up('Enter');
      await expect.poll(() => posted).toEqual([first, second, second, second]);
      expect(await shownItem(page)).toBe(third);
      expect((await stored(third!))?.status).toBe('pending');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('answers one item for a double click on an answer, and takes back one answer for a double click on Undo', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      const posted: string[] = [];
      page.on('response', (r) => {
        if (r.request().method() === 'POST' && r.status() === 200) posted.push(decodeURIComponent(new URL(r.url()).pathname.split('/').at(-1)!));
      });
      const stored = async (id: string) =>
        (
          await query<{ status: string; verdict: string | null }>(`select status, verdict from review_items where item_id = '${id.replace(/'/g, "''")}'`, {
            persistTo: f.collector.persistTo,
          })
        )[0];
      // The first click shows the next item under the pointer: the second is not an answer to it, unread.
      await page.locator('rf-review-page button.verdict.relevant').dblclick();
      await expect.poll(() => shownItem(page)).not.toBe(first);
      const second = await shownItem(page);
      await expect.poll(() => posted).toEqual([first]);
      expect(await shownItem(page)).toBe(second);
      expect(await stored(first!)).toEqual({ status: 'answered', verdict: 'relevant' });
      expect((await stored(second!))?.status).toBe('pending');

      // Two answers given; a double-clicked Undo takes back the last one only.
      await pressAndMove(page, '2', second);
      await expect.poll(() => posted).toEqual([first, second]);
      await page.locator('rf-review-page button.undo').dblclick();
      await expect.poll(() => shownItem(page)).toBe(second);
      await expect.poll(() => posted).toEqual([first, second, second]);
      expect(await stored(second!)).toEqual({ status: 'pending', verdict: null });
      expect(await stored(first!)).toEqual({ status: 'answered', verdict: 'relevant' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists its keys on ?, moves with j and k, and filters by status in the address', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard keys' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Undo the last answer');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });

      const first = await shownItem(page);
      const second = await pressAndMove(page, 'j', first);
      expect(await pressAndMove(page, 'k', second)).toBe(first);
      // The header's lists keep every key (j there does not move), the status filter only the keys a
      // list needs: j moves while it has focus, to the next item, not the one after.
      await page.getByLabel('Language').focus();
      await page.keyboard.press('j');
      await page.locator('rf-review-page select').focus();
      expect(await pressAndMove(page, 'j', first)).toBe(second);

      await page.locator('rf-review-page select').selectOption('answered');
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('answered');
      await page.locator('rf-review-page .answered').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('says beside the status filter what the collector refused in a hand-edited address, with no list, and shows the list once it is put right', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review?status=bogus');
    try {
      const filter = page.locator('rf-review-page select[aria-describedby="filter-status-error"]');
      const error = page.locator('rf-review-page #filter-status-error');
      await expect.poll(() => filter.getAttribute('aria-invalid')).toBe('true');
      expect(await error.textContent()).toMatch(/^was refused by the collector: \S/);
      expect(await page.locator('rf-review-page article.item').count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('status')).toBe('bogus');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => error.textContent()).toBe('被收集服务拒绝');

      await filter.selectOption('pending');
      await page.locator('rf-review-page article.item').waitFor();
      expect(await filter.getAttribute('aria-invalid')).toBe('false');
      expect(await error.textContent()).toBe('');
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe(null);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens a linked item wherever it is: further down the waiting list, or in the answered list once answered', async () => {
    const f = fixture();
    const queue: ReviewQueue = await f.admin('/v1/admin/review?limit=500');
    const deep = queue.items.at(-1)!;
    expect(queue.items.length).toBeGreaterThan(20);
    const link = `/admin/review?item=${encodeURIComponent(deep.id)}`;
    let { page, context } = await openConsole(browser(), f, link);
    try {
      await expect.poll(() => shownItem(page)).toBe(deep.id);
    } finally {
      await context.close();
    }
    await f.admin(`/v1/admin/review/${encodeURIComponent(deep.id)}`, { method: 'POST', json: { verdict: 'relevant' } });
    ({ page, context } = await openConsole(browser(), f, link));
    try {
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('answered');
      await expect.poll(() => shownItem(page)).toBe(deep.id);
    } finally {
      await context.close();
    }
  });
  it('changes an answer from the answered list and moves to the next answered item; past the last it says the list ends there and focus moves there', async () => {
    const f = fixture();
    const waiting: ReviewQueue = await f.admin('/v1/admin/review?limit=3');
    for (const item of waiting.items) await f.admin(`/v1/admin/review/${encodeURIComponent(item.id)}`, { method: 'POST', json: { verdict: 'relevant' } });
    const answered: ReviewQueue = await f.admin('/v1/admin/review?status=answered&limit=500');
    // The whole list in the console's first page, so the last item is the last one shown.
    expect(answered.items.length).toBeLessThanOrEqual(20);
    const [latest, next] = answered.items;
    const last = answered.items.at(-1)!;
    const verdictOf = async (id: string) => (await f.admin<{ verdict: string }>(`/v1/admin/review/${encodeURIComponent(id)}`)).verdict;

    let { page, context, problems } = await openConsole(browser(), f, `/admin/review?status=answered&item=${encodeURIComponent(latest!.id)}`);
    try {
      await expect.poll(() => shownItem(page)).toBe(latest!.id);
      await pressAndMove(page, '2', latest!.id);
      expect(await shownItem(page)).toBe(next!.id);
      expect(await page.locator('rf-review-page [data-field="position"]').textContent()).toMatch(/^Item 2 of the \d+ loaded$/);
      await expect.poll(() => verdictOf(latest!.id)).toBe('not_relevant');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    ({ page, context, problems } = await openConsole(browser(), f, `/admin/review?status=answered&item=${encodeURIComponent(last.id)}`, { locale: 'zh-CN' }));
    try {
      await expect.poll(() => shownItem(page)).toBe(last.id);
      // Answered with a click, the last item's button leaves with it: focus moves to what is shown.
      await page.locator('rf-review-page button.verdict.not_relevant').click();
      // The list's end, its items still on it before this point.
      await expect
        .poll(() => page.locator('rf-review-page .empty').textContent())
        .toBe(`已到列表末尾。此前还有 ${answered.items.length} 项仍在列表中：按 k 或 ← 返回查看。`);
      await expect.poll(() => page.evaluate(focusedClass)).toBe('card empty');
      // Past the list's end no item is shown, so none is counted.
      expect(await page.locator('rf-review-page [data-field="position"]').count()).toBe(0);
      await expect.poll(() => verdictOf(last.id)).toBe('not_relevant');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('takes its letter keys with Caps Lock on, and Shift with a letter for no key', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      // Caps Lock types a capital with no Shift held, as these presses do.
      const second = await pressAndMove(page, 'J', first);
      expect(await pressAndMove(page, 'K', second)).toBe(first);
      // Shift+j is no key: the J after it moves one item, not two.
      await page.keyboard.press('Shift+J');
      expect(await pressAndMove(page, 'J', first)).toBe(second);
      await page.keyboard.press('N');
      await expect.poll(() => page.evaluate(() => document.querySelector('rf-review-page')?.shadowRoot?.activeElement?.id)).toBe('note');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('past the last item, says the items passed over still wait rather than that nothing does, and goes back to them', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      // A list of two items: skipping both reaches its end.
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === '/v1/admin/review',
          async (route) => {
            const res = await route.fetch();
            const body = (await res.json()) as ReviewQueue;
            return route.fulfill({ response: res, json: { ...body, items: body.items.slice(0, 2) } });
          },
        ),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const second = await pressAndMove(page, 'j', await shownItem(page));
      await page.keyboard.press('j');
      const end = page.locator('rf-review-page .empty');
      await expect.poll(() => end.textContent()).toBe('End of the list: 2 still on it before this point. k or ← goes back.');
      await page.keyboard.press('k');
      await expect.poll(() => shownItem(page)).toBe(second);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows an item’s saved note, and keeps it when the answer is changed unless the reviewer changes it', async () => {
    const f = fixture();
    const [item] = ((await f.admin('/v1/admin/review?limit=1')) as ReviewQueue).items;
    const path = `/v1/admin/review/${encodeURIComponent(item!.id)}`;
    await f.admin(path, { method: 'POST', json: { verdict: 'not_relevant', note: 'about shipping' } });
    const stored = () => f.admin<{ verdict: string; note: string | null }>(path);
    const link = `/admin/review?status=answered&item=${encodeURIComponent(item!.id)}`;

    let { page, context, problems } = await openConsole(browser(), f, link);
    try {
      const sent: unknown[] = [];
      page.on('request', (req) => {
        if (req.method() === 'POST' && new URL(req.url()).pathname === path) sent.push(req.postDataJSON());
      });
      await expect.poll(() => shownItem(page)).toBe(item!.id);
      expect(await page.locator('rf-review-page #note').inputValue()).toBe('about shipping');
      await pressAndMove(page, '1', item!.id);
      // Given against the answer the page showed: one given meanwhile elsewhere would not be overwritten.
      await expect.poll(() => sent).toEqual([{ verdict: 'relevant', note: 'about shipping', ifVerdict: 'not_relevant' }]);
      await expect.poll(stored).toMatchObject({ verdict: 'relevant', note: 'about shipping' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // A note the reviewer rewrites is the one kept.
    ({ page, context, problems } = await openConsole(browser(), f, link));
    try {
      await expect.poll(() => shownItem(page)).toBe(item!.id);
      await page.keyboard.press('n');
      await page.locator('rf-review-page #note').fill('about shipping to Canada');
      await page.keyboard.press('Escape');
      await pressAndMove(page, '2', item!.id);
      await expect.poll(stored).toMatchObject({ verdict: 'not_relevant', note: 'about shipping to Canada' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('undoes, on the list the reviewer went to, the last answer given on the one before: that item is shown there, waiting again', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = (await shownItem(page))!;
      const path = `/v1/admin/review/${encodeURIComponent(item)}`;
      const posted = (status: number) =>
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === status);
      const saved = posted(200);
      await pressAndMove(page, '2', item);
      await saved;
      const heldListed = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/v1/admin/review' && new URL(r.url()).searchParams.get('status') === 'held',
      );
      await page.locator('rf-review-page select').selectOption('held');
      await heldListed;
      await page.locator('rf-review-page article.item, rf-review-page .empty').first().waitFor();
      const undone = posted(200);
      await page.keyboard.press('u');
      await undone;
      await expect.poll(() => shownItem(page)).toBe(item);
      await expect.poll(() => page.getByRole('status').textContent()).toContain('Answer taken back');
      expect(await page.locator('rf-review-page button.verdict.not_relevant').getAttribute('aria-pressed')).toBe('false');
      expect(await f.admin(path)).toMatchObject({ status: 'pending', verdict: null });
      // Nothing more to take back: the one answer was.
      await page.keyboard.press('u');
      await expect.poll(() => page.getByRole('status').textContent()).toBe('Nothing to undo.');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('the review queue’s held items', () => {
  it('are said to be held below the mining threshold, past the week’s budget or on a curated question, and to come back when that changes', async () => {
    const f = fixture();
    const { budget }: ReviewQueue = await f.admin('/v1/admin/review?status=held&limit=1');
    // The seed's items all fit a week's budget at the starting threshold: the held list is empty.
    expect(budget.held).toBe(0);
    const words = {
      'en-US': {
        counts: `${budget.pending} waiting · 0 held`,
        empty:
          'No held items to show. Items below the mining threshold, or past what a week’s review budget clears, are held here, not dropped: the nightly job queues them when the threshold relaxes or the queue has room. So are items on a question in the curated eval suite, until it leaves the suite.',
      },
      'zh-CN': {
        counts: `${budget.pending} 项待审核 · 0 项暂缓`,
        empty:
          '没有可显示的暂缓项目。低于挖掘阈值或超出每周审核预算的项目暂缓在这里而不丢弃：阈值放宽或队列有空位时，夜间任务会把它们放回队列。精选评估集中问题的项目也暂缓在这里，直到该问题离开评估集。',
      },
    };
    for (const [locale, { counts, empty }] of Object.entries(words)) {
      const { page, context, problems } = await openConsole(browser(), f, '/admin/review?status=held', { locale });
      try {
        await expect.poll(() => page.locator('rf-review-page .card.empty').textContent()).toBe(empty);
        expect(await page.locator('rf-review-page .progress .muted').textContent()).toBe(counts);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
