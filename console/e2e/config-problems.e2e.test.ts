import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCollector, startLocalCollector } from '../../scripts/local-collector.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { axe } from './axe.ts';
import { openConsole } from './fixture.ts';

const browser = useBrowser();

// A collector whose Worker settings hold two values they do not take, one of them markup.
let collector: LocalCollector;
beforeAll(async () => {
  collector = await startLocalCollector({ vars: { EVENTS_INGEST: '<b>queu</b>', RATE_LIMIT_SESSION_PER_MIN: '0', RATE_LIMIT_IP_PER_MIN: '100000' } });
}, 120_000);
afterAll(async () => {
  await collector?.stop();
});

describe('settings the collector does not take', () => {
  it('are said above every page, as text, in the reader’s language, for any key', async () => {
    const { page, context, problems } = await openConsole(browser(), { collector }, '/admin/health');
    try {
      const notice = page.locator('rf-console [data-field="config-problems"]');
      await notice.waitFor();
      expect(await notice.locator('h2').textContent()).toBe(
        'The collector’s settings hold values they do not take (wrangler.toml [vars], .dev.vars or the Cloudflare dashboard):',
      );
      expect(await notice.locator('li').allTextContents()).toEqual([
        'EVENTS_INGEST is "<b>queu</b>", which it does not take (it takes "direct" or "queue"): read as "direct" until it is set right',
        'RATE_LIMIT_SESSION_PER_MIN is "0", which it does not take (it takes a number above 0): read as 600 until it is set right',
      ]);
      expect(await notice.locator('b').count()).toBe(0);
      // Another page keeps it; in Chinese its heading is Chinese.
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await page.locator('rf-settings-page').waitFor();
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => notice.locator('h2').textContent()).toBe('收集器的设置中有无效的值（wrangler.toml 的 [vars]、.dev.vars 或 Cloudflare 仪表板）：');
      expect(await notice.locator('li').count()).toBe(2);
      expect(await axe(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    // A viewer key, which cannot change them, is told too: what it reads may be off because of them.
    const viewer = await openConsole(browser(), { collector }, '/admin/health', { asViewer: true });
    try {
      await expect.poll(() => viewer.page.locator('rf-console [data-field="config-problems"] li').count()).toBe(2);
      expect(viewer.problems).toEqual([]);
    } finally {
      await viewer.context.close();
    }
  });
});
