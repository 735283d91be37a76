import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { HealthSnapshot } from '../api/types.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

/** The health page as the collector would show these nights (newest first). */
const openWithSnapshots = (f: ReturnType<typeof fixture>, snapshots: readonly { day: string }[]) =>
  openConsole(browser(), f, '/admin/health?days=7', {
    routes: (ctx) =>
      ctx.route(
        (url) => url.pathname === '/v1/admin/health',
        (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ latest: snapshots[0], snapshots }) }),
      ),
  });

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
      // A model trained today is charted from the next night's snapshot: the page says when, not that none was trained.
      expect(await view.getByText('No eval score yet: a model’s score is charted from the first nightly run after it was trained.').count()).toBe(1);

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

  it('shows the days the address names, any the API takes, and says beside the list when it refuses them', async () => {
    const f = fixture();
    const asked: (string | null)[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/health?days=14', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === '/v1/admin/health',
          (route) => {
            asked.push(new URL(route.request().url()).searchParams.get('days'));
            return route.continue();
          },
        ),
    });
    try {
      const days = page.locator('rf-health-page select');
      await page.locator('rf-health-page [data-field="latest"]').waitFor();
      expect(asked).toEqual(['14']);
      expect(await days.inputValue()).toBe('14');
      expect(await days.locator('option').allTextContents()).toEqual(['7', '14', '30', '90', '365']);
      expect(await days.getAttribute('aria-invalid')).toBe('false');
      expect(new URL(page.url()).searchParams.get('days')).toBe('14');
      // Days the API refuses are said beside the list, not swapped for others unsaid.
      await page.goto(`${f.collector.url}/admin/health?days=0`);
      await expect.poll(() => days.getAttribute('aria-invalid')).toBe('true');
      expect(await days.inputValue()).toBe('0');
      expect(await page.locator('rf-health-page #filter-days-error').textContent()).toMatch(/^was refused by the collector: \S/);
      expect(await page.locator('rf-health-page [data-field="latest"]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws the eval score as a line per model version served, a rollback going back to the earlier line', async () => {
    const f = fixture();
    const night = (day: string, servedModel: string | null, evalNdcg5: number | null) => ({ day, servedModel, metrics: { traces: 10, evalNdcg5 } });
    // Newest first, as the collector answers: v1 promoted, then v2, then v1 again after a rollback.
    const snapshots = [night('2026-03-04', 'v1', 0.61), night('2026-03-03', 'v2', 0.64), night('2026-03-02', 'v1', 0.61), night('2026-03-01', null, null)];
    const { page, context, problems } = await openWithSnapshots(f, snapshots);
    try {
      const chart = page.locator('rf-health-page rf-line-chart[heading="Eval score (nDCG@5) per model version"]');
      await expect.poll(() => chart.locator('.u-legend .u-series').allTextContents()).toEqual(['v1', 'v2']);
      await chart.getByText('Data').click();
      expect(await chart.locator('details thead th').allTextContents()).toEqual([expect.any(String), 'v1', 'v2']);
      expect(await chart.locator('details tbody tr').nth(2).textContent()).toContain('0.640');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('breaks its lines over a missed night and lists the night in the table, rather than draw across it', async () => {
    const f = fixture();
    const night = (day: string, explicitSignals: number) => ({ day, servedModel: null, metrics: { traces: 10, explicitSignals, implicitSignals: 5 } });
    // Newest first; no snapshot for 2026-03-03 nor 2026-03-04: the job did not run those nights.
    const snapshots = [night('2026-03-05', 9), night('2026-03-02', 4), night('2026-03-01', 3)];
    const { page, context, problems } = await openWithSnapshots(f, snapshots);
    try {
      const volume = page.locator('rf-health-page rf-line-chart[heading="Explicit and implicit volume"]');
      await volume.locator('canvas').waitFor();
      // The values uPlot drew, a day apart: none on the nights missed, so no line joins 2 and 5 March.
      const drawn = await volume.evaluate((el) => (el as unknown as { plot: { data: (number | null)[][] } }).plot.data.map((d) => [...d]));
      expect(drawn[0]!.map((x) => new Date(x! * 1000).toISOString().slice(0, 10))).toEqual([
        '2026-03-01',
        '2026-03-02',
        '2026-03-03',
        '2026-03-04',
        '2026-03-05',
      ]);
      expect(drawn[1]).toEqual([3, 4, null, null, 9]);
      await volume.getByText('Data').click();
      expect(await volume.locator('details tbody tr').allTextContents()).toEqual([
        '2026-03-0135',
        '2026-03-0245',
        '2026-03-03——',
        '2026-03-04——',
        '2026-03-0595',
      ]);
      expect(await page.locator('rf-health-page #latest-title').textContent()).toBe('Night of 2026-03-05');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps a share axis within 0-100% when every share is 0, as on a new project without feedback', async () => {
    const f = fixture();
    const rates = { coverage: 0, trustedCoverage: 0, effectiveRate: 0, requeryRate: 0 };
    const night = (day: string) => ({ day, servedModel: null, metrics: { traces: 10, ...rates } });
    const snapshots = [night('2026-03-03'), night('2026-03-02'), night('2026-03-01')];
    const { page, context, problems } = await openWithSnapshots(f, snapshots);
    try {
      const chart = page.locator('rf-health-page rf-line-chart').first();
      await chart.locator('canvas').waitFor();
      // The scale uPlot drew: a share is at most 100%, not ten thousand per cent.
      const y = await chart.evaluate((el) => {
        const { min, max } = (el as unknown as { plot: { scales: { y: { min: number; max: number } } } }).plot.scales.y;
        return { min, max };
      });
      expect(y).toEqual({ min: 0, max: 1 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says a share that is neither none nor all as <1% or >99%, not 0% or 100%, in either language', async () => {
    const f = fixture();
    const night = {
      day: '2026-03-01',
      servedModel: null,
      metrics: { traces: 1000, coverage: 0.004, trustedCoverage: 0.996, effectiveRate: 0, requeryRate: 1 },
    };
    const { page, context, problems } = await openWithSnapshots(f, [night]);
    try {
      const shares = () =>
        page.locator('rf-health-page [data-field="latest"] [data-metric$="ate"] dd, rf-health-page [data-metric$="overage"] dd').allTextContents();
      await expect.poll(shares).toEqual(['<1%', '>99%', '0%', '100%']);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => page.locator('rf-health-page #latest-title').textContent()).not.toBe('Night of 2026-03-01');
      expect(await shares()).toEqual(['<1%', '>99%', '0%', '100%']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
