/** A change of language: its words fetched when it is first chosen, and a message already on the page (a save's outcome, an erasure's) following it, as every other word does. */
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { axe } from './axe.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('switching language', () => {
  it('rewords the outcome of a save on the settings, prompt settings and owner rules pages', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings');
    try {
      const pages = [
        { path: '/admin/settings', tag: 'rf-settings-page', ready: 'form.settings' },
        { path: '/admin/prompts', tag: 'rf-prompts-page', ready: 'form' },
        { path: '/admin/documents', tag: 'rf-documents-page', ready: 'section.owners form' },
      ];
      for (const p of pages) {
        await page.locator('rf-console header select').first().selectOption('en');
        await page.goto(`${f.collector.url}${p.path}`);
        await page.locator(`${p.tag} ${p.ready}`).first().waitFor();
        await page.locator(`${p.tag} button[type="submit"].primary`).last().click();
        const status = page.locator(`${p.tag} [role="status"]`).filter({ hasText: /./ });
        await expect.poll(() => status.first().textContent(), { message: p.path }).toBe('Saved.');
        await page.getByLabel('Language').selectOption('zh-CN');
        await expect.poll(() => status.first().textContent(), { message: p.path }).toBe('已保存。');
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('rewords the outcome of an erasure', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings');
    try {
      await page.getByLabel('Hashed user id').fill('u-nobody-at-all');
      await page.getByRole('button', { name: 'Erase…' }).click();
      await page.locator('rf-settings-page dialog button.danger').click();
      const status = page.locator('rf-settings-page section [role="status"]');
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Erased u-nobody-at-all/);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => status.textContent()).toMatch(/^已删除 u-nobody-at-all/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('switching language with an alert shown', () => {
  it('rewords a refused key on the sign-in page and an unsaved answer in the review queue', async () => {
    const f = fixture();
    const signIn = await openConsole(browser(), f, '/admin/review', { signedIn: false });
    try {
      const { page } = signIn;
      await page.getByLabel('Admin key').fill('rfa_not_a_real_key_at_all_0000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.locator('rf-sign-in-page [role="alert"]');
      await expect.poll(() => alert.textContent()).toBe('That key was not accepted: it is unknown or revoked.');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => alert.textContent()).not.toBe('That key was not accepted: it is unknown or revoked.');
      expect(signIn.problems).toEqual([]);
    } finally {
      await signIn.context.close();
    }

    const review = await openConsole(browser(), f, '/admin/review', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname.startsWith('/v1/admin/review/') && !url.pathname.endsWith('/traces'),
          (route) =>
            route.request().method() === 'POST'
              ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"boom"}}' })
              : route.continue(),
        ),
    });
    try {
      const { page } = review;
      await page.locator('rf-review-page article.item').waitFor();
      await page.keyboard.press('2');
      const alert = page.locator('rf-review-page p.error[role="alert"]');
      await expect
        .poll(() => alert.textContent())
        .toBe('The answer was not saved: The collector answered 500: it could not carry out the request: its log says why');
      // What a screen reader was told of the answer follows too.
      const told = page.locator('rf-review-page p[role="status"]');
      expect(await told.textContent()).toContain('Answered Not relevant.');
      await page.getByLabel('Language').selectOption('zh-CN');
      // Every word of it, the API's own message too: it is worded from its code.
      await expect.poll(() => alert.textContent()).toBe('回答未保存：收集服务返回 500：它无法完成这个请求：原因见其日志');
      await expect.poll(() => told.textContent()).toContain('已回答“不相关”。');
      expect(review.problems).toEqual([]);
    } finally {
      await review.context.close();
    }
  });
});

describe('loading a language', () => {
  /** Routes (for `openConsole`) noting each language file fetched, and failing those of `failing` (of its languages at the time). */
  const languageFiles =
    (fetched: string[], failing: string | string[] = []) =>
    (context: BrowserContext) =>
      context.route(/\/chunks\/(en|zh-CN)-\w+\.js$/, (route) => {
        const language = /\/chunks\/(en|zh-CN)-/.exec(route.request().url())![1]!;
        fetched.push(language);
        return [failing].flat().includes(language) ? route.abort('connectionrefused') : route.continue();
      });

  it('fetches the words of the language shown alone, and another’s when it is chosen', async () => {
    const f = fixture();
    const fetched: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { routes: languageFiles(fetched) });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      expect(fetched).toEqual(['en']);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => page.locator('rf-console nav').getAttribute('aria-label')).toBe('页面');
      expect(await page.locator('rf-review-page h1').textContent()).toBe('审核队列');
      expect(fetched).toEqual(['en', 'zh-CN']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a Chinese reader Chinese from the first paint, fetching no other language’s words', async () => {
    const f = fixture();
    const fetched: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      locale: 'zh-CN',
      routes: async (ctx) => {
        await languageFiles(fetched)(ctx);
        // The frame's first render, as the first paint will show it: observers run before the browser paints.
        await ctx.addInitScript(() => {
          new MutationObserver((_, observer) => {
            const header = document.querySelector('rf-console header');
            if (!header) return;
            (window as unknown as { firstHeader: string }).firstHeader = header.textContent!.replace(/\s+/g, ' ').trim();
            observer.disconnect();
          }).observe(document, { childList: true, subtree: true });
        });
      },
    });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const firstHeader = await page.evaluate(() => (window as unknown as { firstHeader: string }).firstHeader);
      expect(firstHeader).toContain('审核');
      expect(firstHeader).not.toMatch(/Review|Language|Sign out/);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
      expect(fetched).toEqual(['zh-CN']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps the language shown and says so when the words of the one chosen cannot be fetched', async () => {
    const f = fixture();
    const fetched: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { routes: languageFiles(fetched, 'zh-CN') });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      await page.getByLabel('Language').selectOption('zh-CN');
      const alert = page.locator('rf-console [role="alert"][data-field="language-load-failed"]');
      await expect.poll(() => alert.textContent()).toContain('简体中文 could not be loaded: the console may have been updated since this tab opened.');
      expect(fetched).toEqual(['en', 'zh-CN']);
      expect(await page.getByLabel('Language').inputValue()).toBe('en');
      expect(await page.locator('rf-review-page h1').textContent()).toBe('Review queue');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await alert.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
      // Kept all the same, so Reload (after a deploy, the new files) shows it.
      expect(await page.evaluate(() => localStorage.getItem('rf-console-locale'))).toBe('zh-CN');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows English, saying so, when the words of a Chinese reader’s language cannot be fetched on first load', async () => {
    const f = fixture();
    const fetched: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { locale: 'zh-CN', routes: languageFiles(fetched, 'zh-CN') });
    try {
      await page.locator('rf-review-page article.item').waitFor();
      const alert = page.locator('rf-console [role="alert"][data-field="language-load-failed"]');
      await expect.poll(() => alert.textContent()).toContain('简体中文 could not be loaded');
      expect(fetched).toEqual(['zh-CN', 'en']);
      expect(await page.getByLabel('Language').inputValue()).toBe('en');
      expect(await page.locator('rf-review-page h1').textContent()).toBe('Review queue');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says in both languages that the console could not be loaded when no words can be fetched, and Reload loads it', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
      const f = fixture();
      const fetched: string[] = [];
      const failing = ['en', 'zh-CN'];
      const { page, context, problems } = await openConsole(browser(), f, '/admin/review', { locale, routes: languageFiles(fetched, failing) });
      try {
        const alert = page.locator('rf-console [role="alert"][data-field="console-load-failed"]');
        await expect
          .poll(() => alert.textContent(), { message: locale })
          .toMatch(/^\s*The console could not be loaded · 无法加载控制台\s*Reload · 重新加载\s*$/);
        expect(fetched, locale).toEqual(locale === 'en-US' ? ['en'] : ['zh-CN', 'en']);
        expect(await axe(page, { shadowRoots: false }), locale).toEqual([]);
        const reload = alert.getByRole('button', { name: 'Reload · 重新加载' });
        await page.keyboard.press('Tab');
        expect(await reload.evaluate((b) => b === document.activeElement)).toBe(true);
        failing.length = 0;
        await reload.press('Enter');
        await expect.poll(() => page.locator('rf-console nav').getAttribute('aria-label'), { message: locale }).toBe(locale === 'en-US' ? 'Pages' : '页面');
        expect(problems, locale).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
