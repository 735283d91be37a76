import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { axe } from './axe.ts';
import { fetchAgain, openConsole, useSeededCollector } from './fixture.ts';
import { trainedModels } from './trained-models.ts';

const browser = useBrowser();
const models = trainedModels();
/** A reason that would add an element or run script if it were rendered as HTML. */
const markup = `<img src=x onerror="window.__xss='reason'"><b>bold</b>`;
const fixture = useSeededCollector(async (f) => {
  await f.admin('/v1/admin/models', { method: 'POST', json: models.first });
  // Stored as a model from before the gate's findings were kept: its reasons are shown as they are, markup and all.
  await f.admin('/v1/admin/models', { method: 'POST', json: { ...models.second, findings: [], reasons: [...models.second.reasons, markup] } });
});

const FIRST = models.first.model.version;
const SECOND = models.second.model.version;

/** The version GET /v1/reranker serves backends now, or null for retrieval's order. */
async function served(): Promise<string | null> {
  const f = fixture();
  const res = await fetchAgain(`${f.collector.url}/v1/reranker`, { headers: { authorization: `Bearer ${f.collector.keys.server}` } });
  if (res.status === 404) return null;
  return ((await res.json()) as { version: string }).version;
}

/** The text of what has the keyboard, through shadow roots; what the page's role says when that is a section. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el?.tagName === 'SECTION' ? `section ${el.getAttribute('aria-label')}` : (el?.textContent?.trim() ?? null);
  });
const model = (page: Page, version: string) => page.locator(`rf-models-page article[data-version="${version}"]`);

/** The rollout history's rows, newest first, without their time: change, from, to, by, reason. */
const historyRows = (page: Page) =>
  page
    .locator('rf-models-page .history tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent!.trim())));

describe('the models page', () => {
  it('lists every version with the gate’s figures, decision and reasons, and which one is served', async () => {
    const f = fixture();
    expect(await served()).toBe(FIRST);
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models');
    try {
      await model(page, SECOND).waitFor();
      // Newest first.
      expect(await page.locator('rf-models-page article.model').evaluateAll((els) => els.map((e) => e.getAttribute('data-version')))).toEqual([SECOND, FIRST]);
      expect(await page.locator('rf-models-page [data-field="served"]').textContent()).toBe(`Served now: ${FIRST}`);
      expect(await model(page, FIRST).getAttribute('data-current')).toBe('true');
      expect(await model(page, FIRST).locator('[data-field="decision"]').textContent()).toBe('Gate: passed');
      expect(await model(page, SECOND).locator('[data-field="decision"]').textContent()).toBe('Gate: rejected');
      // How the served one came to be served, and the rollout history: the gate's promotion with its reasons.
      expect(await page.locator('rf-models-page [data-field="served-by"]').textContent()).toMatch(/^Promoted by the gate, /);
      expect(await historyRows(page)).toEqual([['Promoted', 'retrieval’s order', FIRST, 'the gate', models.first.reasons.join('; ')]]);
      expect(await model(page, SECOND).locator('.reasons li').allTextContents()).toEqual([...models.second.reasons, markup]);
      // Worded by the console from the gate's findings: in English, the job's own words, naming the curated suite it decided on.
      expect(await model(page, FIRST).locator('.reasons li').allTextContents()).toEqual(models.first.reasons);
      expect(models.first.reasons).toEqual([expect.stringMatching(/held-out queries, on the curated suite$/)]);
      expect(await model(page, SECOND).locator('.reasons img, .reasons b').count()).toBe(0);
      expect(await page.evaluate(() => (window as any).__xss ?? null)).toBeNull();

      // The gate's figures, overall and per layer, as recorded.
      const { candidate, current, retrieval } = models.first.evaluation;
      const overall = model(page, FIRST).locator('tr[data-scope="overall"]');
      expect(await overall.locator('[data-metric="ndcg5"]').textContent()).toBe(candidate.overall.ndcg5.toFixed(3));
      expect(await overall.locator('[data-metric="ndcg10"]').textContent()).toBe(candidate.overall.ndcg10.toFixed(3));
      expect(await overall.locator('[data-metric="mrr10"]').textContent()).toBe(candidate.overall.mrr10.toFixed(3));
      expect(await overall.locator('[data-metric="gain"]').textContent()).toBe(`+${(candidate.overall.ndcg5 - current.overall.ndcg5).toFixed(3)}`);
      expect(await overall.textContent()).toContain(retrieval.overall.ndcg5.toFixed(3));
      const layers = Object.keys(candidate.layers).sort();
      expect(
        await model(page, FIRST)
          .locator('tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-scope'))),
      ).toEqual(['overall', ...layers]);
      for (const layer of layers) {
        const row = model(page, FIRST).locator(`tr[data-scope="${layer}"]`);
        expect(await row.locator('[data-metric="ndcg5"]').textContent()).toBe(candidate.layers[layer]!.ndcg5.toFixed(3));
      }
      // The served model has nothing to promote; the others do.
      expect(
        await model(page, FIRST)
          .getByRole('button', { name: /Promote/ })
          .count(),
      ).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('promotes and rolls back after a confirmation, changing what GET /v1/reranker serves', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models');
    try {
      const promote = page.getByRole('button', { name: `Promote ${SECOND}` });
      await promote.click();
      const dialog = page.getByRole('dialog', { name: `Serve ${SECOND} to users?` });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('The gate rejected this model');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await served()).toBe(FIRST);

      await promote.click();
      await dialog.getByLabel('Reason (kept in the rollout history)').fill('overruled for the billing questions');
      await dialog.getByRole('button', { name: 'Promote', exact: true }).click();
      await page.getByText(`Now serving ${SECOND}.`).waitFor();
      expect(await served()).toBe(SECOND);
      await expect.poll(() => model(page, SECOND).getAttribute('data-current')).toBe('true');
      expect(await page.locator('rf-models-page [data-field="served"]').textContent()).toBe(`Served now: ${SECOND}`);
      expect(await page.locator('rf-models-page [data-field="served-by"]').textContent()).toMatch(/^Promoted by an admin, /);
      expect((await historyRows(page))[0]).toEqual(['Promoted', FIRST, SECOND, 'an admin', 'overruled for the billing questions']);
      // The Promote button that opened the dialog is gone: the keyboard lands on what now serves.
      expect(await focused(page)).toBe('Roll back…');

      // A slow registry read: what the page announces must already be what it shows.
      await page.route('**/v1/admin/models', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      const rollBack = page.getByRole('button', { name: 'Roll back…' });
      await rollBack.click();
      const confirm = page.getByRole('dialog', { name: `Stop serving ${SECOND}?` });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await served()).toBe(SECOND);
      await rollBack.click();
      // A reason that would be markup if it were rendered as HTML.
      await confirm.getByLabel('Reason (kept in the rollout history)').fill(markup);
      await confirm.getByRole('button', { name: 'Roll back', exact: true }).click();
      await page.getByText(`Rolled back ${SECOND}. Served now: ${FIRST}`).waitFor();
      expect(await served()).toBe(FIRST);
      expect(await page.locator('rf-models-page [data-field="served-by"]').textContent()).toMatch(/^Served again by a rollback, /);
      expect((await historyRows(page))[0]).toEqual(['Rolled back', SECOND, FIRST, 'an admin', markup]);
      expect(await page.locator('rf-models-page .history img, rf-models-page .history b').count()).toBe(0);

      // Down to retrieval's order: nothing left to roll back.
      await rollBack.click();
      await page
        .getByRole('dialog', { name: `Stop serving ${FIRST}?` })
        .getByRole('button', { name: 'Roll back', exact: true })
        .click();
      await page.getByText(`Rolled back ${FIRST}. Served now: retrieval’s order (no model)`).waitFor();
      expect(await served()).toBeNull();
      expect(await rollBack.count()).toBe(0);
      expect(await focused(page)).toBe('section Served');

      // Back to where the file started.
      await page.getByRole('button', { name: `Promote ${FIRST}` }).click();
      await page
        .getByRole('dialog', { name: `Serve ${FIRST} to users?` })
        .getByRole('button', { name: 'Promote', exact: true })
        .click();
      await page.getByText(`Now serving ${FIRST}.`).waitFor();
      expect(await served()).toBe(FIRST);
      // Promoted by hand this time: nothing on the page says the gate did it.
      expect(await page.locator('rf-models-page [data-field="served-by"]').textContent()).toMatch(/^Promoted by an admin, /);
      expect(await model(page, FIRST).locator('[data-field="decision"]').textContent()).toBe('Gate: passed');
      expect(await page.getByText('Promoted by the gate').count()).toBe(0);
      expect((await historyRows(page)).map(([change, from, to, by]) => [change, from, to, by])).toEqual([
        ['Promoted', 'retrieval’s order', FIRST, 'an admin'],
        ['Rolled back', FIRST, 'retrieval’s order', 'an admin'],
        ['Rolled back', SECOND, FIRST, 'an admin'],
        ['Promoted', FIRST, SECOND, 'an admin'],
        ['Promoted', 'retrieval’s order', FIRST, 'the gate'],
      ]);
      expect(await page.evaluate(() => (window as any).__xss ?? null)).toBeNull();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows no registry it could not read again after a promotion, rather than one still serving the version replaced', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models');
    try {
      await model(page, SECOND).waitFor();
      // The registry can no longer be read; the promotion itself goes through.
      await page.route('**/v1/admin/models', (route) => route.abort());
      await page.getByRole('button', { name: `Promote ${SECOND}` }).click();
      await page
        .getByRole('dialog', { name: `Serve ${SECOND} to users?` })
        .getByRole('button', { name: 'Promote', exact: true })
        .click();
      await page.getByText(`Now serving ${SECOND}.`).waitFor();
      expect(await served()).toBe(SECOND);
      // Nothing on the page says the version replaced is still served; the keyboard is on Try again.
      expect(await page.locator('rf-models-page article.model, rf-models-page [data-field="served"]').count()).toBe(0);
      await expect.poll(() => focused(page)).toBe('Try again');
      // Read again, the registry shows what is served now.
      await page.unroute('**/v1/admin/models');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect.poll(() => model(page, SECOND).getAttribute('data-current')).toBe('true');
      expect(await page.locator('rf-models-page [data-field="served"]').textContent()).toBe(`Served now: ${SECOND}`);
      expect(await page.getByText(`Now serving ${SECOND}.`).count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await f.admin(`/v1/admin/models/${encodeURIComponent(FIRST)}/promote`, { method: 'POST', json: {} });
      await context.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`is accessible in the ${colorScheme} theme, with its confirmation open, in English and Chinese`, async () => {
      const f = fixture();
      const { page, context } = await openConsole(browser(), f, '/admin/models', { colorScheme, locale: colorScheme === 'dark' ? 'zh-CN' : 'en-US' });
      try {
        await model(page, SECOND).locator('table').waitFor();
        expect(await axe(page)).toEqual([]);
        await model(page, SECOND).getByRole('button').click();
        await page.getByRole('dialog').waitFor();
        expect(await axe(page)).toEqual([]);
        if (colorScheme === 'dark') {
          expect(await page.getByRole('dialog').getByRole('heading').textContent()).toBe(`将 ${SECOND} 提供给用户？`);
          await page.keyboard.press('Escape');
          await page.getByRole('heading', { name: '模型', level: 1 }).waitFor();
          expect(await model(page, FIRST).locator('[data-field="decision"]').textContent()).toBe('评估门槛：通过');
          // The gate's findings in Chinese too (a model stored before findings were kept shows its English reasons).
          expect(await model(page, FIRST).locator('.reasons li').allTextContents()).toEqual([
            expect.stringMatching(/^nDCG@5 \d\.\d{3} → \d\.\d{3}（\+\d\.\d{3}），基于 \d+ 个保留查询（基于精选评估集）$/),
          ]);
          expect(await model(page, FIRST).locator('thead').textContent()).toContain('查询范围');
          await page.getByRole('heading', { name: '上线历史', level: 2 }).waitFor();
          // The gate's promotion of the first model says why in Chinese as well.
          expect(await page.locator('rf-models-page .history tr[data-by="gate"] td.text').allTextContents()).toEqual([
            expect.stringMatching(/个保留查询（基于精选评估集）$/),
          ]);
          expect(await page.locator('rf-models-page [data-field="served-by"]').textContent()).toMatch(/由管理员上线$/);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('never starts an admin page for a viewer key, not even while its project is being named', async () => {
    const f = fixture();
    const asked: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/review', {
      asViewer: true,
      routes: async (ctx) => {
        ctx.on('request', (r) => asked.push(new URL(r.url()).pathname));
        // The project named slowly: the time a viewer key used to see the review page start loading.
        await ctx.route('**/v1/admin/project', async (route) => {
          await new Promise((r) => setTimeout(r, 1_500));
          await route.continue();
        });
      },
    });
    try {
      await expect.poll(() => page.locator('rf-console [data-field="viewer-only"] h1').textContent()).toBe('This page needs an admin key');
      expect(asked.filter((p) => p.startsWith('/v1/admin/review'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a viewer key loop health and the models without promote or roll back, and no page of what users asked', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models', { asViewer: true });
    try {
      const nav = page.locator('rf-console nav a');
      await expect.poll(() => nav.allTextContents()).toEqual(['Loop health', 'Chunks', 'Models']);
      await page.locator(`rf-models-page article[data-version="${SECOND}"]`).waitFor();
      expect(await page.locator('rf-models-page button:visible').allTextContents()).toEqual([]);
      // The page says why there is no promote or roll back.
      expect(await page.locator('rf-models-page [data-field="read-only"]').textContent()).toBe(
        'Signed in with a viewer key, which reads the models: promoting and rolling back need the project’s admin key.',
      );
      // The console's home, the review queue for an admin key, is loop health for a viewer key.
      await page.goto(`${f.collector.url}/admin`);
      await page.locator('rf-health-page h1').waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/health');
      // A page of what users asked says why it is not shown, and where to go instead.
      for (const path of ['/admin/review', '/admin/traces', '/admin/corrections']) {
        await page.goto(`${f.collector.url}${path}`);
        await expect.poll(() => page.locator('rf-console [data-field="viewer-only"] h1').textContent()).toBe('This page needs an admin key');
      }
      await page.locator('rf-console [data-field="viewer-only"] a', { hasText: 'Loop health' }).click();
      await page.locator('rf-health-page h1').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it('says in the console’s language that nothing was rolled back when what users get was changed meanwhile, and shows what is served', async () => {
    const f = fixture();
    expect(await served()).toBe(FIRST);
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models');
    try {
      await model(page, FIRST).waitFor();
      // Another admin rolls back while this page still shows the first version served.
      await f.admin('/v1/admin/models/rollback', { method: 'POST', json: { version: FIRST, reason: 'from another tab' } });
      await page.getByRole('button', { name: 'Roll back…' }).click();
      await page
        .getByRole('dialog', { name: `Stop serving ${FIRST}?` })
        .getByRole('button', { name: 'Roll back', exact: true })
        .click();
      const status = page.locator('rf-models-page .status');
      await expect
        .poll(() => status.textContent())
        .toBe('Nothing was changed: what users get was changed meanwhile, in another tab or by the nightly job. The page shows what is served now.');
      // What the other tab's rollback serves, not the version this page was asked to roll back.
      const now = await served();
      expect(now).not.toBe(FIRST);
      expect(await page.locator('rf-models-page [data-field="served"]').textContent()).toBe(
        now ? `Served now: ${now}` : 'Served now: retrieval’s order (no model)',
      );
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => status.textContent()).toBe('未做任何更改：用户所用的模型在此期间已在另一个标签页中或由夜间任务更改。页面现显示当前上线的模型。');
      expect(problems).toEqual([]);
    } finally {
      // Back to where the file started.
      if ((await served()) !== FIRST) await f.admin(`/v1/admin/models/${encodeURIComponent(FIRST)}/promote`, { method: 'POST', json: {} });
      await context.close();
    }
  });

  it('promotes nothing over a version served meanwhile, which the page did not show, and says so', async () => {
    const f = fixture();
    expect(await served()).toBe(FIRST);
    const { page, context, problems } = await openConsole(browser(), f, '/admin/models');
    try {
      await model(page, SECOND).waitFor();
      // Another admin rolls back to retrieval's order while this page still shows the first version served.
      while ((await served()) !== null) await f.admin('/v1/admin/models/rollback', { method: 'POST', json: { reason: 'from another tab' } });
      await page.getByRole('button', { name: `Promote ${SECOND}` }).click();
      await page
        .getByRole('dialog', { name: `Serve ${SECOND} to users?` })
        .getByRole('button', { name: 'Promote', exact: true })
        .click();
      await expect
        .poll(() => page.locator('rf-models-page .status').textContent())
        .toBe('Nothing was changed: what users get was changed meanwhile, in another tab or by the nightly job. The page shows what is served now.');
      // Their rollback stands, shown, rather than replaced by a promotion decided on the page before it.
      expect(await served()).toBeNull();
      expect(await page.locator('rf-models-page [data-field="served"]').textContent()).toBe('Served now: retrieval’s order (no model)');
      expect(problems).toEqual([]);
    } finally {
      // Back to where the file started.
      if ((await served()) !== FIRST) await f.admin(`/v1/admin/models/${encodeURIComponent(FIRST)}/promote`, { method: 'POST', json: {} });
      await context.close();
    }
  });
});
