import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('the console in a window as narrow as a phone', () => {
  it('keeps the words of a user’s text in a table readable, a few to a line, the table scrolling in its box instead', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/review');
    try {
      await page.setViewportSize({ width: 360, height: 720 });
      const cells = page.locator('rf-review-page .traces td.text');
      await cells.first().waitFor();
      const widths = await cells.evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width / Number.parseFloat(getComputedStyle(td).fontSize)));
      // The query and the evidence beside the traces' ids and dates, not a letter or two a line.
      expect(Math.min(...widths)).toBeGreaterThanOrEqual(12);
      // The page itself does not scroll sideways: the table does, in its box.
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(360);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('wraps the owner rules’ empty table to the window, rather than the whole page scrolling sideways', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/documents');
    try {
      await page.setViewportSize({ width: 360, height: 720 });
      await page.locator('rf-documents-page [data-field="no-rules"]').waitFor();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(360);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
