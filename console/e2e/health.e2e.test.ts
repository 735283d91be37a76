import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { HealthSnapshot } from '../api/types.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('loop health', () => {
  it('shows the latest snapshot and each metric over time as charts with their data, in either theme', async () => {
    const f = fixture();
    const { latest }: { latest: HealthSnapshot } = await f.admin('/v1/admin/health');
    const { page, context, problems } = await openConsole(browser(), f, '/admin/health?days=7');
    try {
      const view = page.locator('rf-health-page');
      await view.locator('[data-field="latest"]').waitFor();
      // The figures are the last night's: the page says so, and when they change.
      expect(await view.locator('#latest-title').textContent()).toBe(`Night of ${latest.day}`);
      expect(await view.getByText('count from its next run').count()).toBe(1);
      expect(await view.locator('[data-metric="traces"] dd').textContent()).toBe(latest.metrics.traces!.toLocaleString('en'));
      expect(await view.locator('[data-metric="reviewBudgetPerWeek"] dd').textContent()).toBe(String(latest.metrics.reviewBudgetPerWeek));

      // Four charts drawn on canvases, each with its numbers in a table.
      const charts = view.locator('rf-line-chart');
      await expect.poll(() => charts.count()).toBe(4);
      await expect.poll(() => view.locator('rf-line-chart canvas').count()).toBe(4);
      const volume = charts.nth(1);
      expect(await volume.getAttribute('heading')).toBe('Explicit and implicit volume');
      await volume.getByText('Data').click();
      expect(await volume.locator('details tbody tr').first().textContent()).toContain(
        `${latest.day}${latest.metrics.explicitSignals}${latest.metrics.implicitSignals}`,
      );
      expect(await view.getByText('No eval score yet').count()).toBe(1);

      // The legend names the series in the console's words, with no placeholder for a value (the table has them).
      expect(await volume.locator('.u-legend .u-series').allTextContents()).toEqual(['Explicit signals', 'Implicit signals']);

      // On a phone's width the header wraps and the charts take one column: nothing scrolls sideways.
      await page.setViewportSize({ width: 375, height: 740 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 720 });

      // The filter is the address; switching the theme redraws without errors.
      expect(new URL(page.url()).searchParams.get('days')).toBe('7');
      await page.getByLabel('Theme').selectOption('dark');
      await page.getByLabel('Theme').selectOption('light');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
