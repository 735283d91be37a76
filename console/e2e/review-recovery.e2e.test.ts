/** The review queue when the collector fails it, and on back and forward: what the reviewer sees stays true. */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { PAGE_SIZE } from '../pages/review/review-session.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const shownItem = (page: Page) => page.locator('rf-review-page article.item').getAttribute('data-item');

/**
 * Two reviewers on the same queue, each shown its first item, the same one; `answered` waits for an
 * answer to that item to be answered with `status`.
 */
async function twoReviewers(f: ReturnType<typeof fixture>) {
  const first = await openConsole(browser(), f, '/admin/review');
  const second = await openConsole(browser(), f, '/admin/review');
  try {
    for (const { page } of [first, second]) await page.locator('rf-review-page article.item').waitFor();
    const item = await shownItem(second.page);
    expect(await shownItem(first.page)).toBe(item);
    const path = `/v1/admin/review/${encodeURIComponent(item!)}`;
    const answered = (page: Page, status: number) =>
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === status);
    return { first, second, item, path, answered };
  } catch (error) {
    await first.context.close();
    await second.context.close();
    throw error;
  }
}

describe('review queue, when things go wrong', () => {
  it('clears the "not saved" alert once the item it was about has been answered and saved', async () => {
    const f = fixture();
    // The first answer is refused (a 500, not one the console sends again); later ones reach the
    // collector. Routed before the page loads, as the other review tests are, and the item refused
    // read from the request: the test then says which item an answer was sent for.
    let refused: string | undefined;
    const { page, context } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route(
          (url) => /^\/v1\/admin\/review\/[^/]+$/.test(url.pathname),
          (route) => {
            if (route.request().method() !== 'POST' || refused) return route.continue();
            refused = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop()!);
            return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' });
          },
        ),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const item = await shownItem(page);
      const path = `/v1/admin/review/${encodeURIComponent(item!)}`;
      const alert = page.locator('rf-review-page p.error[role="alert"]');
      await page.keyboard.press('2');
      await expect.poll(() => alert.textContent()).toContain('The answer was not saved');
      expect(refused).toBe(item);
      // The item came back; answered again, it is saved and the queue moves on.
      await expect.poll(() => shownItem(page)).toBe(item);
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === 200);
      await page.keyboard.press('2');
      await saved;
      await expect.poll(() => shownItem(page)).not.toBe(item);
      // The alert still says the answer was not saved, though it now is.
      await expect.poll(() => alert.textContent(), { timeout: 3_000 }).toBe('');
    } finally {
      await context.close();
    }
  });

  it('does not overwrite unseen an answer another reviewer gave meanwhile: it shows it, and an answer given again replaces it', async () => {
    const f = fixture();
    const { first, second, item, path, answered } = await twoReviewers(f);
    try {
      const saved = answered(first.page, 200);
      await first.page.keyboard.press('1');
      await saved;
      // The second reviewer, who saw it unanswered, answers otherwise: refused, and shown the first answer.
      const refused = answered(second.page, 409);
      await second.page.keyboard.press('2');
      await refused;
      const alert = second.page.locator('rf-review-page p.error[role="alert"]');
      await expect.poll(() => alert.textContent()).toContain('answered meanwhile');
      await expect.poll(() => shownItem(second.page)).toBe(item);
      const relevant = second.page.locator('rf-review-page button.verdict.relevant');
      await expect.poll(() => relevant.getAttribute('aria-pressed')).toBe('true');
      expect(await f.admin(path)).toMatchObject({ verdict: 'relevant' });
      // Answered again, knowingly: it replaces the first answer.
      const replaced = answered(second.page, 200);
      await second.page.keyboard.press('2');
      await replaced;
      expect(await f.admin(path)).toMatchObject({ verdict: 'not_relevant' });
      // The first reviewer's undo would take back the second's answer: refused, and said so.
      const undoRefused = answered(first.page, 409);
      await first.page.keyboard.press('u');
      await undoRefused;
      await expect.poll(() => first.page.locator('rf-review-page p.error[role="alert"]').textContent()).toContain('it was not taken back');
      expect(await f.admin(path)).toMatchObject({ verdict: 'not_relevant' });
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it('keeps the note the reviewer typed when their answer is refused, the other reviewer’s note shown beside it', async () => {
    const f = fixture();
    const { first, second, item, path, answered } = await twoReviewers(f);
    try {
      const answerWithNote = async (page: Page, note: string, key: string) => {
        await page.locator('rf-review-page #note').fill(note);
        // Esc leaves the note, where the answer keys work again.
        await page.keyboard.press('Escape');
        await page.keyboard.press(key);
      };
      const saved = answered(first.page, 200);
      await answerWithNote(first.page, 'Off topic, says the first reviewer', '2');
      await saved;
      // The second reviewer, who saw it unanswered, writes a note and answers: refused.
      const refused = answered(second.page, 409);
      await answerWithNote(second.page, 'The chunk answers it, says the second', '1');
      await refused;
      await expect.poll(() => second.page.locator('rf-review-page p.error[role="alert"]').textContent()).toContain('answered meanwhile');
      await expect.poll(() => shownItem(second.page)).toBe(item);
      const note = second.page.locator('rf-review-page #note');
      const savedNote = second.page.locator('rf-review-page [data-field="saved-note"]');
      // What they typed is still in the field; the note the item holds is shown beside it, and described by it.
      await expect.poll(() => note.inputValue()).toBe('The chunk answers it, says the second');
      expect(await savedNote.textContent()).toBe('Off topic, says the first reviewer');
      expect(await note.getAttribute('aria-describedby')).toBe('saved-note');
      // Answered again, knowingly: saved with their note, which is then the item's (no draft left beside it).
      const replaced = answered(second.page, 200);
      await second.page.keyboard.press('1');
      await replaced;
      expect(await f.admin(path)).toMatchObject({ verdict: 'relevant', note: 'The chunk answers it, says the second' });
      await expect.poll(() => shownItem(second.page)).not.toBe(item);
      await second.page.keyboard.press('k');
      await expect.poll(() => shownItem(second.page)).toBe(item);
      expect(await note.inputValue()).toBe('The chunk answers it, says the second');
      expect(await savedNote.count()).toBe(0);
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });

  it('keeps the status filter in step with the list shown on back and forward', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const select = page.locator('rf-review-page select');
      await select.selectOption('held');
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('held');
      await page.goBack();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe(null);
      await expect.poll(() => select.inputValue()).toBe('pending');
      await page.goForward();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('held');
      // The page now lists the held items: the filter must say so.
      await expect.poll(() => select.inputValue()).toBe('held');
    } finally {
      await context.close();
    }
  });
});

describe('review queue: a list fetched while an answer is on its way', () => {
  /** Answers to items wait until `release` says how each ends; the lists are passed on as they come, or, once `crossing`, the next waiting list is built then held back. */
  function heldAnswers() {
    const held: ((outcome: 'saved' | 'refused') => void)[] = [];
    const control = {
      crossing: false,
      /** Resolves once the server has built the crossing list; `deliver` then lets it through. */
      built: undefined as Promise<void> | undefined,
      deliver: () => {},
      async release(outcome: 'saved' | 'refused') {
        await expect.poll(() => held.length).toBeGreaterThan(0);
        held.shift()!(outcome);
      },
      routes: (ctx: BrowserContext) =>
        Promise.all([
          ctx.route(
            (url) => /^\/v1\/admin\/review\/[^/]+$/.test(url.pathname),
            async (route) => {
              if (route.request().method() !== 'POST') return route.continue();
              const outcome = await new Promise<'saved' | 'refused'>((r) => held.push(r));
              if (outcome === 'saved') return route.continue();
              return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' });
            },
          ),
          ctx.route(
            (url) => url.pathname === '/v1/admin/review' && url.searchParams.get('status') === 'pending',
            async (route) => {
              if (!control.crossing) return route.continue();
              control.crossing = false;
              const delivered = new Promise<void>((r) => (control.deliver = r));
              const response = await route.fetch();
              builtNow();
              await delivered;
              return route.fulfill({ response });
            },
          ),
        ]),
    };
    let builtNow = () => {};
    control.built = new Promise<void>((r) => (builtNow = r));
    return control;
  }

  /** The queue with its answers held (`heldAnswers`), and the item it shows first. */
  async function openWithAnswersHeld() {
    const f = fixture();
    const answers = heldAnswers();
    const opened = await openConsole(browser(), f, '/admin/review', { routes: answers.routes });
    await opened.page.locator('rf-review-page article.item').waitFor();
    return { f, answers, ...opened, item: await shownItem(opened.page) };
  }

  /** Goes to the held list and back to the waiting one, which is fetched anew; resolves once the filter is back. */
  async function toHeldAndBack(page: Page, before?: () => void) {
    const select = page.locator('rf-review-page select');
    await select.selectOption('held');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('held');
    before?.();
    await select.selectOption('pending');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).not.toBe('held');
  }

  it('shows the item answered, with its note, and brings it back, the reviewer on it, when the answer is not saved', async () => {
    const { answers, page, context, problems, item } = await openWithAnswersHeld();
    try {
      const note = page.locator('rf-review-page #note');
      await note.fill('Off topic, on its way');
      await page.keyboard.press('Escape');
      await page.keyboard.press('2');
      await expect.poll(() => shownItem(page)).not.toBe(item);
      const next = await shownItem(page);
      await toHeldAndBack(page);
      // The list, fetched while the answer is on its way, starts past the item, which shows that answer.
      await expect.poll(async () => [item, next].includes(await shownItem(page))).toBe(true);
      expect(await shownItem(page)).toBe(next);
      await page.keyboard.press('k');
      await expect.poll(() => shownItem(page)).toBe(item);
      const notRelevant = page.locator('rf-review-page button.verdict.not_relevant');
      expect(await notRelevant.getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('rf-review-page .answered').textContent()).toContain('Not relevant');
      expect(await note.inputValue()).toBe('Off topic, on its way');
      expect(await page.locator('rf-review-page [data-field="saved-note"]').count()).toBe(0);
      // Not saved: the item comes back unanswered, the reviewer on it, their note kept.
      await page.keyboard.press('j');
      await expect.poll(() => shownItem(page)).toBe(next);
      await answers.release('refused');
      await expect.poll(() => page.locator('rf-review-page p.error[role="alert"]').textContent()).toContain('The answer was not saved');
      await expect.poll(() => shownItem(page)).toBe(item);
      expect(await notRelevant.getAttribute('aria-pressed')).toBe('false');
      expect(await page.locator('rf-review-page .answered').count()).toBe(0);
      expect(await note.inputValue()).toBe('Off topic, on its way');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the item with its saved answer when the list was built before the answer landed and arrives after it', async () => {
    const { f, answers, page, context, problems, item } = await openWithAnswersHeld();
    try {
      const path = `/v1/admin/review/${encodeURIComponent(item!)}`;
      await page.keyboard.press('1');
      await expect.poll(() => shownItem(page)).not.toBe(item);
      const next = await shownItem(page);
      await toHeldAndBack(page, () => (answers.crossing = true));
      // The server builds the list with the item waiting; then the answer lands; then the list arrives.
      await answers.built;
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === 200);
      await answers.release('saved');
      await saved;
      answers.deliver();
      await expect.poll(async () => [item, next].includes(await shownItem(page))).toBe(true);
      expect(await shownItem(page)).toBe(next);
      await page.keyboard.press('k');
      await expect.poll(() => shownItem(page)).toBe(item);
      expect(await page.locator('rf-review-page button.verdict.relevant').getAttribute('aria-pressed')).toBe('true');
      expect(await f.admin(path)).toMatchObject({ status: 'answered', verdict: 'relevant' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('adds the item, with its answer, first on the answered list fetched while that answer was on its way', async () => {
    const { f, answers, page, context, problems, item } = await openWithAnswersHeld();
    try {
      const path = `/v1/admin/review/${encodeURIComponent(item!)}`;
      await page.keyboard.press('1');
      await expect.poll(() => shownItem(page)).not.toBe(item);
      const answeredListed = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/v1/admin/review' && new URL(r.url()).searchParams.get('status') === 'answered',
      );
      await page.locator('rf-review-page select').selectOption('answered');
      // The server lists answered items latest first, and has not saved this one yet: the list shows it first all the same.
      await answeredListed;
      await expect.poll(() => shownItem(page)).toBe(item);
      expect(await page.locator('rf-review-page button.verdict.relevant').getAttribute('aria-pressed')).toBe('true');
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path && r.status() === 200);
      await answers.release('saved');
      await saved;
      expect(await shownItem(page)).toBe(item);
      expect(await f.admin(path)).toMatchObject({ status: 'answered', verdict: 'relevant' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('review queue: leaving it', () => {
  it('keeps a note typed and the answer to take back across a trace opened and Back, and asks before the tab closes on a note not saved', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      // An answer given, then a note typed on the next item and not saved.
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/v1/admin/review/') && r.status() === 200);
      await page.keyboard.press('2');
      await saved;
      await expect.poll(() => shownItem(page)).not.toBe(first);
      const second = await shownItem(page);
      await page.locator('rf-review-page #note').fill('Half written: the dates disagree');
      await page.locator('rf-review-page section.traces a').first().click();
      await page.locator('rf-trace-page').waitFor();
      await page.goBack();
      await expect.poll(() => shownItem(page)).toBe(second);
      await expect.poll(() => page.locator('rf-review-page #note').inputValue()).toBe('Half written: the dates disagree');
      // `u` still takes back the answer given before the trace was opened.
      await page.keyboard.press('Escape');
      const undone = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(encodeURIComponent(first!)) && r.status() === 200);
      await page.keyboard.press('u');
      await undone;
      await expect.poll(() => shownItem(page)).toBe(first);
      expect(await f.admin(`/v1/admin/review/${encodeURIComponent(first!)}`)).toMatchObject({ status: 'pending', verdict: null });
      // Closing the tab with the note still unsaved asks first (the page cancels beforeunload), and
      // not once the note is emptied and nothing is on its way.
      const asksBeforeClosing = () =>
        page.evaluate(() => {
          const e = new Event('beforeunload', { cancelable: true });
          window.dispatchEvent(e);
          return e.defaultPrevented;
        });
      expect(await asksBeforeClosing()).toBe(true);
      await page.keyboard.press('j');
      await expect.poll(() => shownItem(page)).toBe(second);
      await page.locator('rf-review-page #note').fill('');
      expect(await asksBeforeClosing()).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe('review queue: signing out', () => {
  it('asks first with a note typed and not saved, staying signed in with the note when told not to', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review');
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const note = page.locator('rf-review-page #note');
      await note.fill('Half written: the dates disagree');
      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      const signOut = page.getByRole('button', { name: 'Sign out' });
      await signOut.click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain('signing out now may lose it');
      expect(await note.inputValue()).toBe('Half written: the dates disagree');
      expect(await page.locator('rf-sign-in-page').count()).toBe(0);
      // Nothing left unsaved: signing out asks nothing.
      await note.fill('');
      await signOut.click();
      await page.locator('rf-sign-in-page').waitFor();
      expect(asked).toHaveLength(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('review queue: an answer that fails while a trace is open', () => {
  it('says it was not saved on the queue come back to, whether it failed before or after coming back', async () => {
    const f = fixture();
    // Every answer waits until released, then is refused.
    const held: (() => void)[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route(
          (url) => /^\/v1\/admin\/review\/[^/]+$/.test(url.pathname),
          async (route) => {
            if (route.request().method() !== 'POST') return route.continue();
            await new Promise<void>((r) => held.push(r));
            return route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' });
          },
        ),
    });
    const refused = () => page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/v1/admin/review/') && r.status() === 500);
    const release = async () => {
      await expect.poll(() => held.length).toBeGreaterThan(0);
      held.shift()!();
    };
    const alert = page.locator('rf-review-page p.error[role="alert"]');
    const openTraceAndBack = async (whileAway?: () => Promise<void>) => {
      await page.locator('rf-review-page section.traces a').first().click();
      await page.locator('rf-trace-page').waitFor();
      await whileAway?.();
      await page.goBack();
      await page.locator('rf-review-page article.item').waitFor();
    };
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const first = await shownItem(page);
      // Refused while the trace is open: said once the queue is back.
      await page.keyboard.press('2');
      await expect.poll(() => shownItem(page)).not.toBe(first);
      await openTraceAndBack(async () => {
        const done = refused();
        await release();
        await done;
      });
      await expect
        .poll(() => alert.textContent())
        .toBe('The answer was not saved: The collector answered 500: it could not carry out the request: its log says why');
      // Refused after coming back, while the answer was still on its way: said on the page come back to.
      const second = await shownItem(page);
      await page.keyboard.press('3');
      await expect.poll(() => shownItem(page)).not.toBe(second);
      expect(await alert.textContent()).toBe('');
      await openTraceAndBack();
      const done = refused();
      await release();
      await done;
      await expect
        .poll(() => alert.textContent())
        .toBe('The answer was not saved: The collector answered 500: it could not carry out the request: its log says why');
      await expect.poll(() => shownItem(page)).toBe(second);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('review queue: the traces behind an item', () => {
  it('says so when the traces could not be fetched, instead of "Loading…" for good', async () => {
    const f = fixture();
    // Every traces request of this tab fails (the collector erring on that endpoint).
    const { page, context } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route('**/v1/admin/review/*/traces', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' }),
        ),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      expect(await shownItem(page)).not.toBeNull();
      const traces = page.locator('rf-review-page section.traces');
      await page.waitForTimeout(3_000);
      // Not "Loading…" for good: it says they could not be fetched, and asks again when told to.
      expect(await traces.textContent()).not.toContain('Loading');
      await expect.poll(() => traces.getByRole('alert').textContent()).toContain('The traces could not be fetched.');
      await context.unroute('**/v1/admin/review/*/traces');
      await traces.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => traces.locator('table tbody tr').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('says the next page could not be fetched, past the last item loaded, instead of "Nothing waiting", and fetches it when told to', async () => {
    const f = fixture();
    // The first page arrives; every later one fails until the collector recovers.
    let recovered = false;
    const { page, context } = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === '/v1/admin/review' && url.searchParams.get('limit') !== String(PAGE_SIZE),
          (route) =>
            recovered
              ? route.continue()
              : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' }),
        ),
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      for (let i = 0; i < PAGE_SIZE; i++) await page.keyboard.press('j');
      const end = page.locator('rf-review-page .empty');
      await expect.poll(() => end.textContent()).toContain('The collector answered 500: it could not carry out the request: its log says why');
      expect(await end.textContent()).not.toContain('Nothing waiting');
      recovered = true;
      await end.getByRole('button', { name: 'Try again' }).click();
      // The 21st item of the queue.
      await page.locator('rf-review-page article.item').waitFor();
      expect(await page.locator('rf-review-page [data-field="position"]').textContent()).toMatch(new RegExp(`^Item ${PAGE_SIZE + 1} of the \\d+ loaded$`));
    } finally {
      await context.close();
    }
  });
});
