/** The corrections inbox as one is resolved after another. */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { Correction } from '../api/types.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('corrections inbox', () => {
  it('does not carry the note typed for a resolved correction over to the next one', async () => {
    const f = fixture();
    const inbox: { owners: { owner: string | null; corrections: Correction[] }[] } = await f.admin('/v1/admin/corrections');
    const open = inbox.owners.flatMap((o) => o.corrections);
    expect(open.length).toBeGreaterThanOrEqual(2);
    const { page, context } = await openConsole(browser(), f, '/admin/corrections');
    try {
      const articles = page.locator('rf-corrections-page article.correction');
      await articles.first().waitFor();
      const firstId = await articles.first().getAttribute('data-event');
      const secondId = await articles.nth(1).getAttribute('data-event');
      const first = page.locator(`rf-corrections-page article[data-event="${firstId}"]`);
      await first.getByLabel('What was changed').fill('rewrote refunds.md section 2');
      await first.getByRole('button', { name: 'Resolve' }).click();
      await expect.poll(() => page.locator(`rf-corrections-page article[data-event="${firstId}"]`).count()).toBe(0);
      // The next correction, still open, must show an empty note: the reviewer wrote nothing for it yet.
      const second = page.locator(`rf-corrections-page article[data-event="${secondId}"]`);
      expect(await second.getByLabel('What was changed').inputValue()).toBe('');
    } finally {
      await context.close();
    }
  });
});
