/** A message already on the page (a save's outcome, an erasure's) follows a change of language, as every other word does. */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
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
