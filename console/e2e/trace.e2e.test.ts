import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { demotedAnswerSession } from '../../tests/scenarios/demoted-answer.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();

const session = `trace-view-${Date.now().toString(36)}`;
const { first, second, events } = demotedAnswerSession(session, Date.now() - 3_600_000);
/** The same story in another session whose next turn asks with one long unbroken word (a pasted token). */
const wide = demotedAnswerSession(`${session}-wide`, Date.now() - 7_200_000);
const longQuery = `refund${'openeditemsrefundpolicy'.repeat(16)}`;

const fixture = useSeededCollector(async (f) => {
  const traces = [first, second, wide.first, { ...wide.second, query: longQuery }];
  await f.admin('/v1/traces', { method: 'POST', json: traces, key: f.collector.keys.server });
  await f.admin('/v1/events', { method: 'POST', json: { events: [...events, ...wide.events] }, key: f.collector.keys.write });
});

describe('the trace view', () => {
  it('shows the query and rewrite, parameters, chunks before and after reranking, the answer, signals, the session and a diagnosis', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, `/admin/traces/${first.traceId}`);
    try {
      const view = page.locator('rf-trace-page');
      await view.getByRole('heading', { name: `Trace ${first.traceId}` }).waitFor();
      await view.locator('[data-field="diagnosis"]').waitFor();
      expect(await view.locator('[data-field="query"]').textContent()).toBe(first.query);
      expect(await view.locator('[data-field="rewritten"]').textContent()).toBe(first.rewrittenQuery);
      const params = await view.locator('dl.meta').textContent();
      for (const v of ['bge-small', 'demo-llm', 'rr-1', '0.2']) expect(params).toContain(v);

      // Side by side, in the order the model saw them, with how each moved and what the answer cites.
      const rows = view.locator('table.chunks tbody tr');
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-chunk')))).toEqual(['shipping-1', 'credit-1', 'refund-1']);
      expect((await rows.nth(0).textContent())?.replace(/\s+/g, ' ')).toMatch(/#2 0\.800.*#1 0\.950.*up 1.*cited \[1\]/);
      expect((await rows.nth(2).textContent())?.replace(/\s+/g, ' ')).toMatch(/#1 0\.900.*#3 0\.300.*down 2/);
      expect(await view.locator('[data-field="answer"]').textContent()).toBe(first.answer);

      // Every signal in time order, each with its confidence; attribution and neighbours.
      const signals = view.locator('table.signals tbody tr');
      expect(await signals.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event')))).toEqual([`${session}-e0`, `${session}-e1`, `${session}-e2`]);
      // Each by its name, its code beside it.
      expect((await signals.nth(0).textContent())?.replace(/\s+/g, ' ')).toMatch(/Thumbs down thumbs_down.*-1\.00.*\d+%/);
      expect(await view.locator('ol.session li').allTextContents()).toEqual([
        expect.stringContaining('this answer'),
        expect.stringContaining('and store credit?'),
      ]);

      // The diagnosis in words.
      const diagnosis = await view.locator('[data-field="diagnosis"]').textContent();
      expect(diagnosis).toContain('The chunk closest to the user’s correction (refund-1, 100% of its terms) was ranked 3rd and was not cited');
      expect(diagnosis).toContain('The reranker moved refund-1 down from 1st to 3rd.');
      expect(diagnosis).toContain('The user flagged shipping-1 (ranked 1st) as the wrong source.');

      // A neighbouring turn is one click away, without a reload.
      await view.locator('ol.session a').click();
      await view.getByRole('heading', { name: `Trace ${second.traceId}` }).waitFor();
      await view.locator('[data-field="query"]', { hasText: 'and store credit?' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('opens from a review item, and says so when a trace does not exist', async () => {
    const f = fixture();
    const { page, context } = await openConsole(browser(), f, '/admin/review');
    try {
      const link = page.locator('rf-review-page .traces a').first();
      const id = (await link.textContent())!;
      await link.click();
      await page
        .locator('rf-trace-page')
        .getByRole('heading', { name: `Trace ${id}` })
        .waitFor();
      await page.locator('rf-trace-page [data-field="diagnosis"]').waitFor();
      expect(new URL(page.url()).pathname).toBe(`/admin/traces/${encodeURIComponent(id)}`);

      await page.getByLabel('Trace id').fill('no-such-trace');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByText('No trace or feedback with id no-such-trace.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('names each signal in Chinese too', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), `/admin/traces/${first.traceId}`, { locale: 'zh-CN' });
    try {
      await page.locator('rf-trace-page table.signals tbody tr').first().waitFor();
      expect(await page.locator('rf-trace-page table.signals tbody td:nth-child(2) .signal').allTextContents()).toEqual(['点踩', '标为错误来源', '纠正']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps a long query within the page and each signal’s name on one line', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, `/admin/traces/${wide.first.traceId}`);
    try {
      await page.setViewportSize({ width: 1100, height: 760 });
      const view = page.locator('rf-trace-page');
      await view.locator('ol.session li', { hasText: 'refundopeneditems' }).waitFor();
      await view.locator('table.signals tbody tr').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1100);
      // Each name a whole word: one line box, never "thumbs_" above "down".
      const names = view.locator('table.signals tbody td:nth-child(2) code');
      expect(await names.allTextContents()).toEqual(['thumbs_down', 'wrong_source', 'correction']);
      expect(await names.evaluateAll((els) => els.map((el) => el.getClientRects().length))).toEqual([1, 1, 1]);
      expect(await view.locator('table.signals tbody td:nth-child(2) .signal').allTextContents()).toEqual([
        'Thumbs down',
        'Flagged as the wrong source',
        'Correction',
      ]);

      // On a phone's width the lookup wraps, the columns stack and the tables scroll in their cards: the page does not.
      await page.setViewportSize({ width: 375, height: 740 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
