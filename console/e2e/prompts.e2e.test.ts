/**
 * Prompt settings: a prompt edited in the console is served by GET /v1/config and shown by a
 * widget on the browser suite's host page, which this file's collector lets write to it.
 */
import { describe, expect, it } from 'vitest';
import { addAnswer, callWidget, FAST, newTraceId, site, useBrowser, widget } from '../../tests/e2e/helpers.ts';
import { gotoHostPage } from '../../tests/e2e/host-page.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector(undefined, { origins: () => [site()] });
const collector = () => fixture().collector.url;
const keys = () => fixture().collector.keys;

const config = async (key: string, init: RequestInit = {}) => {
  const res = await fetch(`${collector()}/v1/config`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  return res.json();
};

describe('prompt settings', () => {
  it('edits a prompt that GET /v1/config then serves and a widget on a host page shows; the preview is the real widget', async () => {
    const text = `Need a hand with this answer? ${Date.now()}`;
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts');
    try {
      await page.getByRole('button', { name: 'Add a prompt' }).click();
      const prompt = page.locator('rf-prompts-page fieldset').last();
      await prompt.getByLabel('Id').fill('copy-help');
      await prompt.getByLabel('Trigger').selectOption('large_copy');
      await prompt.getByLabel('Text (English)').fill(text);
      // The shared schema refuses a negative cap: nothing can be saved until it is fixed.
      await prompt.getByLabel('At most per session').fill('-1');
      await expect
        .poll(() => page.locator('rf-prompts-page [data-field="problem"]').textContent())
        .toMatch(/^Not saved: Prompt \d+ · At most per session: must be at least 0$/);
      expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
      await prompt.getByLabel('At most per session').fill('1');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();

      // The preview renders the real <rag-feedback> with the prompt as configured.
      await page.getByRole('button', { name: 'Show prompt copy-help' }).click();
      await page.locator('rf-widget-preview rag-feedback').getByText(text).waitFor();
      expect(problems).toEqual([]);

      const served = await config(keys().write);
      expect(served.prompts).toContainEqual(expect.objectContaining({ id: 'copy-help', trigger: 'large_copy', text: { en: text } }));

      // A widget on the host page, which reads GET /v1/config, shows it on a large copy.
      const host = await browser().newContext();
      const hostPage = await host.newPage();
      try {
        await gotoHostPage(hostPage, { site: site(), endpoint: collector(), writeKey: keys().write, options: FAST });
        const traceId = newTraceId('prompt');
        await addAnswer(hostPage, { traceId });
        // The widget fetches the config as the answer appears: copy until it has it.
        await expect
          .poll(async () => {
            await callWidget(hostPage, traceId, 'reportCopy', 500);
            return widget(hostPage, traceId).getByText(text).count();
          })
          .toBe(1);
      } finally {
        await host.close();
      }
    } finally {
      await context.close();
    }
  });
});
