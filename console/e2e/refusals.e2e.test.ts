/** What the collector refused, said in the reader's language from the refusal's code and the fields it names; a code the console does not know keeps the collector's words. */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const erasureStatus = (page: Page) => page.locator('rf-settings-page section[aria-labelledby="erasure-title"] [role="status"]');

/** Erases `id` from the settings page in English, confirming it, and waits until the status line says how it went. */
async function erase(page: Page, id: string): Promise<void> {
  await page.getByLabel('Hashed user id').fill(id);
  await page.getByRole('button', { name: 'Erase…' }).click();
  await page.locator('rf-settings-page dialog').getByRole('button', { name: 'Erase', exact: true }).click();
  await expect.poll(() => erasureStatus(page).textContent()).toMatch(/^The collector answered/);
}

/** Each refusal the collector can give any of the console's calls, as it words it, and what the console says of it in English and Chinese. */
const REFUSALS: { status: number; body: string; contentType?: string; en: string; zh: string }[] = [
  {
    status: 429,
    body: '{"error":{"code":"rate_limited","message":"Too many requests for this key; retry in 3 s","field":"key"}}',
    en: 'The collector answered 429: too many requests just now: wait a minute and try again',
    zh: '收集服务返回 429：请求过于频繁：请等一分钟后重试',
  },
  {
    status: 413,
    body: '{"error":{"code":"payload_too_large","message":"The body is larger than 65536 bytes","field":"body"}}',
    en: 'The collector answered 413: what was sent is larger than it takes',
    zh: '收集服务返回 413：发送的内容超出了它接受的大小',
  },
  {
    status: 403,
    body: '{"error":{"code":"admin_only","message":"A viewer key reads the loop\'s figures only: this needs an admin key","field":"key"}}',
    en: 'The collector answered 403: this needs the project’s admin key',
    zh: '收集服务返回 403：此操作需要项目的管理密钥',
  },
  {
    status: 404,
    body: '{"error":{"code":"not_found","message":"No route for DELETE /v1/admin/users/u-1","field":"path"}}',
    en: 'The collector answered 404: it does not know this request: it may be older than this console',
    zh: '收集服务返回 404：它不认识这个请求：它可能比此控制台旧',
  },
  {
    status: 500,
    body: '{"error":{"code":"internal","message":"Internal error"}}',
    en: 'The collector answered 500: it could not carry out the request: its log says why',
    zh: '收集服务返回 500：它无法完成这个请求：原因见其日志',
  },
  // A proxy before the collector, answering with a page of its own.
  {
    status: 502,
    body: '<html><body>Bad gateway</body></html>',
    contentType: 'text/html',
    en: 'The collector answered 502: it could not carry out the request: its log says why',
    zh: '收集服务返回 502：它无法完成这个请求：原因见其日志',
  },
  // A code of a collector newer than the console: its own words.
  {
    status: 409,
    body: '{"error":{"code":"erasure_running","message":"An erasure of this user is under way"}}',
    en: 'The collector answered 409: An erasure of this user is under way',
    zh: '收集服务返回 409：An erasure of this user is under way',
  },
];

describe('refusals in the reader’s language', () => {
  it('says what the collector refused from its code and the field it names, in either language', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings');
    try {
      // An id pasted with a soft hyphen in it is not one a trace can hold: refused naming userIdHash.
      await erase(page, 'u-soft\u00adhyphen');
      expect(await erasureStatus(page).textContent()).toBe('The collector answered 400: that is not a user id a trace can hold');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => erasureStatus(page).textContent()).toBe('收集服务返回 400：这不是链路可以包含的用户 ID');

      // A filter refused in a hand-edited address: beside it, and above the page with the field it names.
      await page.goto(`${f.collector.url}/admin/health?days=0`);
      const days = page.locator('rf-health-page #filter-days-error');
      await expect.poll(() => days.textContent()).toBe('被收集服务拒绝');
      expect(await page.locator('rf-health-page p.error[role="alert"]').textContent()).toBe('收集服务返回 400：不接受 query.days');

      // A link to a review item the collector does not have.
      await page.goto(`${f.collector.url}/admin/review?item=rv-no-such-item`);
      await page.locator('rf-review-page article.item').waitFor();
      await expect
        .poll(() => page.locator('rf-review-page p.error[role="alert"]').textContent())
        .toBe('无法打开链接中的项目（收集服务返回 404：没有这个审核项）：列表改从第一项开始。');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('words every other refusal a call can get from its code, and keeps the collector’s words for a code it does not know', async () => {
    const f = fixture();
    const answers = [...REFUSALS];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', {
      routes: (ctx: BrowserContext) =>
        ctx.route('**/v1/admin/users/*', (route) => {
          const { status, body, contentType = 'application/json' } = answers.shift()!;
          return route.fulfill({ status, contentType, body });
        }),
    });
    try {
      for (const { status, en, zh } of REFUSALS) {
        await erase(page, `u-${status}`);
        expect(await erasureStatus(page).textContent()).toBe(en);
        await page.getByLabel('Language').selectOption('zh-CN');
        await expect.poll(() => erasureStatus(page).textContent()).toBe(zh);
        await page.getByLabel('语言').selectOption('en');
        await expect.poll(() => erasureStatus(page).textContent()).toBe(en);
      }
      expect(answers).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
