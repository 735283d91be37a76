/**
 * Prompt settings: a prompt edited in the console is served by GET /v1/config and shown by a
 * widget on the browser suite's host page, which this file's collector lets write to it.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addAnswer, callWidget, FAST, newTraceId, site, useBrowser, widget } from '../../tests/e2e/helpers.ts';
import { gotoHostPage } from '../../tests/e2e/host-page.ts';
import { doubleClickSave, holdingSaves, openConsole, refusingSaves, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector(undefined, { origins: () => [site()] });
const collector = () => fixture().collector.url;
const keys = () => fixture().collector.keys;

const config = async (key: string, init: RequestInit = {}) => {
  const res = await fetch(`${collector()}/v1/config`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  return res.json();
};

/** What a field's aria-describedby points at, as text (the page's elements live in its shadow root). */
const description = (field: Locator) =>
  field.evaluate((el) => {
    const root = el.getRootNode() as ShadowRoot;
    return (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => root.getElementById(id)?.textContent ?? '')
      .join(' ');
  });
const hasFocus = (field: Locator) => field.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el);

describe('prompt settings', () => {
  it('edits a prompt that GET /v1/config then serves and a widget on a host page shows; the preview is the real widget', async () => {
    const text = `Need a hand with this answer? ${Date.now()}`;
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts');
    try {
      await page.getByRole('button', { name: 'Add a prompt' }).click();
      const prompt = page.locator('rf-prompts-page fieldset').last();
      // Just added, it lacks its text: Save waits, but nothing says it is wrong before it is typed in.
      await prompt.getByLabel('Text (English)').waitFor();
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      expect(await page.locator('rf-prompts-page [data-field="problem"]').textContent()).toBe('');
      expect(await page.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
      expect(await page.locator('rf-prompts-page [data-field="preview-paused"]').textContent()).toBe(
        'The preview comes back once the new prompt has its text.',
      );
      await prompt.getByLabel('Id').fill('copy-help');
      await prompt.getByLabel('Trigger').selectOption('large_copy');
      // Naming it and choosing its trigger first does not make the missing text an error either.
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      expect(await page.locator('rf-prompts-page [data-field="preview-paused"]').textContent()).toBe(
        'The preview comes back once the new prompt has its text.',
      );
      // Save stays within the keyboard's reach: pressed, it says why it cannot save, beside the field at fault too, which takes focus.
      const save = page.getByRole('button', { name: 'Save' });
      await save.focus();
      expect(await hasFocus(save)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => hasFocus(prompt.getByLabel('Text (English)'))).toBe(true);
      expect(await page.locator('rf-prompts-page [data-field="problem"]').textContent()).toMatch(
        /^Not saved: Prompt \d+ · Text \(English\): must not be empty$/,
      );
      expect(await description(prompt.getByLabel('Text (English)'))).toBe('must not be empty');
      expect(await description(save)).toMatch(/^Not saved: Prompt \d+ · Text \(English\): must not be empty$/);
      await prompt.getByLabel('Text (English)').fill(text);
      // The shared schema refuses a negative cap: nothing can be saved until it is fixed.
      await prompt.getByLabel('At most per session').fill('-1');
      await expect
        .poll(() => page.locator('rf-prompts-page [data-field="problem"]').textContent())
        .toMatch(/^Not saved: Prompt \d+ · At most per session: must be at least 0$/);
      expect(await page.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
      // The field says it beside itself, and the preview says why it is not shown.
      expect(await prompt.getByLabel('At most per session').getAttribute('aria-invalid')).toBe('true');
      expect(await prompt.locator('[data-field="field-error"]').allTextContents()).toEqual(['must be at least 0']);
      expect(await page.locator('rf-prompts-page [data-field="preview-paused"]').textContent()).toMatch(
        /^The preview comes back once the settings are valid: Prompt \d+ · At most per session: must be at least 0$/,
      );
      await prompt.getByLabel('At most per session').fill('1');
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      expect(await page.locator('rf-prompts-page [data-field="preview-paused"]').count()).toBe(0);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await page.locator('rf-widget-preview rag-feedback').waitFor();

      // The preview renders the real <rag-feedback> with the prompt as configured.
      await page.getByRole('button', { name: 'Show prompt copy-help' }).click();
      // The prompt's own paragraph (its text is also read out through the widget's live region).
      await page.locator('rf-widget-preview rag-feedback p', { hasText: text }).waitFor();
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
            return widget(hostPage, traceId).locator('p', { hasText: text }).count();
          })
          .toBe(1);
      } finally {
        await host.close();
      }
    } finally {
      await context.close();
    }
  });

  it("says beside a prompt's id that another prompt has it", async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts');
    try {
      for (const text of ['First', 'Second']) {
        await page.getByRole('button', { name: 'Add a prompt' }).click();
        const prompt = page.locator('rf-prompts-page fieldset').last();
        await prompt.getByLabel('Id').fill('same-id');
        await prompt.getByLabel('Text (English)').fill(text);
      }
      const second = page.locator('rf-prompts-page fieldset').last();
      await expect.poll(() => second.getByLabel('Id').getAttribute('aria-invalid')).toBe('true');
      expect(await second.locator('[data-field="field-error"]').allTextContents()).toEqual(['has the id of an earlier prompt']);
      expect(await page.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says what is wrong in the prompt being edited while one just added still waits for its text', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts');
    try {
      await page.getByRole('button', { name: 'Add a prompt' }).click();
      await page.getByRole('button', { name: 'Add a prompt' }).click();
      const prompts = page.locator('rf-prompts-page fieldset');
      const [waiting, edited] = [prompts.nth(-2), prompts.last()];
      await edited.getByLabel('Text (English)').fill('Was this useful?');
      await edited.getByLabel('At most per session').fill('-1');
      await expect.poll(() => edited.locator('[data-field="field-error"]').allTextContents()).toEqual(['must be at least 0']);
      expect(await waiting.locator('[data-field="field-error"]').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save' }).getAttribute('aria-disabled')).toBe('true');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside an emptied field, and in the preview, what is wrong, in Chinese too', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts', { locale: 'zh-CN' });
    try {
      await page.locator('rf-widget-preview rag-feedback').waitFor();
      const field = page.getByLabel('改写时间窗（毫秒）');
      await field.fill('');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').allTextContents()).toEqual(['必须是数字']);
      expect(await page.locator('rf-prompts-page [data-field="preview-paused"]').textContent()).toBe(
        '设置有效后预览会重新显示：改写时间窗（毫秒）：必须是数字',
      );
      expect(await page.locator('rf-widget-preview').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings, read by a screen reader', () => {
  it('names a field by its label alone; what is wrong there describes it', async () => {
    const { page, context, problems } = await openConsole(browser(), fixture(), '/admin/prompts');
    try {
      await page.getByRole('button', { name: 'Add a prompt' }).click();
      const prompt = page.locator('rf-prompts-page fieldset').last();
      await prompt.getByLabel('Text (English)').fill('Was this useful?');
      await prompt.getByLabel('At most per session').fill('-1');
      await expect.poll(() => prompt.getByLabel('At most per session').getAttribute('aria-invalid')).toBe('true');
      // Its name is its label's words, not the message too.
      const field = prompt.getByRole('spinbutton', { name: 'At most per session', exact: true });
      expect(await field.count()).toBe(1);
      expect(await description(field)).toBe('must be at least 0');
      await field.fill('1');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('false');
      expect(await field.getAttribute('aria-describedby')).toBeNull();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/**
 * The prompt settings with a prompt added (the `n`th), whose saves the API refuses: with `refused`'s
 * fields, or with `refused` as the message of the field pushed onto `refusals` before each save.
 */
async function withPromptAdded(refused: string | ((n: number) => { field: string; message: string }[]), code = 'invalid_config') {
  const refusals: string[] = [];
  let n = -1;
  const opened = await openConsole(browser(), fixture(), '/admin/prompts', {
    routes: refusingSaves('/v1/config', code, () => (typeof refused === 'string' ? [{ field: refusals.shift()!, message: refused }] : refused(n))),
  });
  const { page, context } = opened;
  try {
    await page.getByRole('button', { name: 'Add a prompt' }).click();
    const prompt = page.locator('rf-prompts-page fieldset').last();
    await prompt.getByLabel('Text (English)').fill('Was this useful?');
    n = (await page.locator('rf-prompts-page fieldset').count()) - 1;
    return { ...opened, refusals, prompt, n };
  } catch (error) {
    await context.close();
    throw error;
  }
}

describe('prompt settings refused by the API', () => {
  it('says beside a field what the API refused there, in the reader’s language; a field it does not show goes to the status line', async () => {
    const { page, context, problems, refusals, prompt, n } = await withPromptAdded('is over the plan’s limit');
    try {
      const perDay = prompt.getByLabel('At most per day');
      const status = page.locator('rf-prompts-page form [role="status"]');

      refusals.push(`prompts[${n}].maxPerDay`);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => perDay.getAttribute('aria-invalid')).toBe('true');
      // A code the console knows: in English with the collector's own words, in Chinese from the code alone.
      expect(await prompt.locator('[data-field="field-error"]').allTextContents()).toEqual(['was refused by the collector: is over the plan’s limit']);
      expect(await perDay.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      expect(await status.textContent()).toBe('');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => prompt.locator('[data-field="field-error"]').allTextContents()).toEqual(['被收集服务拒绝']);
      await page.getByLabel('语言').selectOption('en');

      // A threshold is named by its path too.
      refusals.push('thresholds.rephraseWindowMs');
      await page.getByRole('button', { name: 'Save' }).click();
      const window = page.getByLabel('Rephrase window (ms)');
      await expect.poll(() => window.getAttribute('aria-invalid')).toBe('true');
      expect(await perDay.getAttribute('aria-invalid')).toBe('false');

      // Editing the draft takes the refusal away; a field the form does not show goes to the status line.
      await window.fill('30000');
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      refusals.push('somewhere.else');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => status.textContent()).toBe('The collector answered 400: it did not take somewhere.else (is over the plan’s limit)');
      expect(await page.locator('rf-prompts-page form [aria-invalid="true"]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings: the trigger and the rating mode refused by the API', () => {
  it('says beside the trigger, and beside the rating mode, what the API refused there, and focus moves there', async () => {
    const { page, context, problems, refusals, prompt, n } = await withPromptAdded('is not on this plan');
    try {
      const status = page.locator('rf-prompts-page form [role="status"]');
      const refused = 'was refused by the collector: is not on this plan';

      // The API names them as PUT /v1/config takes them: `prompts[1].trigger`, `rating`.
      refusals.push(`prompts[${n}].trigger`);
      await page.getByRole('button', { name: 'Save' }).click();
      const trigger = prompt.getByRole('combobox', { name: 'Trigger', exact: true });
      await expect.poll(() => trigger.getAttribute('aria-invalid')).toBe('true');
      expect(await description(trigger)).toBe(refused);
      expect(await prompt.locator('[data-field="field-error"]').allTextContents()).toEqual([refused]);
      expect(await hasFocus(trigger)).toBe(true);
      expect(await status.textContent()).toBe('');

      refusals.push('rating');
      await page.getByRole('button', { name: 'Save' }).click();
      const rating = page.getByRole('checkbox', { name: 'Rating mode: 1-5 stars instead of thumbs', exact: true });
      await expect.poll(() => rating.getAttribute('aria-invalid')).toBe('true');
      expect(await description(rating)).toBe(refused);
      expect(await hasFocus(rating)).toBe(true);
      expect(await trigger.getAttribute('aria-invalid')).toBe('false');
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').allTextContents()).toEqual([refused]);
      expect(await status.textContent()).toBe('');

      // Changing it takes the refusal away.
      await rating.click();
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      expect(await rating.getAttribute('aria-invalid')).toBe('false');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings with several fields refused by the API', () => {
  it('marks each beside its field, focus on the first; one the form does not show goes to the status line; a code the console does not know keeps the API’s words', async () => {
    const { page, context, problems, prompt } = await withPromptAdded(
      (n) => [
        { field: `prompts[${n}].maxPerDay`, message: 'is over the plan’s limit' },
        { field: 'rating', message: 'is <i>not</i> on this plan' },
        { field: 'somewhere.else', message: 'is unknown' },
      ],
      // A code of a collector newer than the console.
      'over_plan',
    );
    try {
      await page.getByRole('button', { name: 'Save' }).click();

      const perDay = prompt.getByLabel('At most per day');
      const rating = page.getByRole('checkbox', { name: 'Rating mode: 1-5 stars instead of thumbs', exact: true });
      await expect.poll(() => perDay.getAttribute('aria-invalid')).toBe('true');
      expect(await rating.getAttribute('aria-invalid')).toBe('true');
      expect(await description(perDay)).toBe('was refused by the collector: is over the plan’s limit');
      // The API's words are text, never markup.
      expect(await description(rating)).toBe('was refused by the collector: is <i>not</i> on this plan');
      expect(await page.locator('rf-prompts-page [data-field="field-error"] i').count()).toBe(0);
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(2);
      // The rating mode comes first in the form.
      expect(await hasFocus(rating)).toBe(true);
      expect(await page.locator('rf-prompts-page form [role="status"]').textContent()).toBe('The collector answered 400: somewhere.else: is unknown');

      // Editing the draft takes every refusal away.
      await perDay.fill('4');
      expect(await page.locator('rf-prompts-page [data-field="field-error"]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings with one field refused twice by the API', () => {
  it('says both refusals of a code it does not know beside the field, and nothing in the status line', async () => {
    const { page, context, problems, prompt } = await withPromptAdded(
      (n) => [
        { field: `prompts[${n}].maxPerDay`, message: 'is over the plan’s limit' },
        { field: `prompts[${n}].maxPerDay`, message: 'must be below the per-session cap' },
      ],
      'over_plan',
    );
    try {
      await page.getByRole('button', { name: 'Save' }).click();

      const perDay = prompt.getByLabel('At most per day');
      await expect.poll(() => perDay.getAttribute('aria-invalid')).toBe('true');
      expect(await description(perDay)).toBe('was refused by the collector: is over the plan’s limit; must be below the per-session cap');
      expect(await hasFocus(perDay)).toBe(true);
      expect(await page.locator('rf-prompts-page form [role="status"]').textContent()).toBe('');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect
        .poll(() => prompt.locator('[data-field="field-error"]').allTextContents())
        .toEqual(['被收集服务拒绝：is over the plan’s limit; must be below the per-session cap']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('prompt settings thresholds', () => {
  it('keeps what the reader is typing in a number field while it is not a number yet (".75", "1e4")', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/prompts');
    try {
      const similarity = page.getByLabel('Rephrase similarity (0-1)');
      await similarity.waitFor();
      await similarity.click();
      await similarity.press('Control+a');
      // "." alone is not a number yet: the field must keep it, not be emptied under the reader's fingers.
      await similarity.pressSequentially('.75');
      expect(await similarity.inputValue()).toBe('.75');

      const window = page.getByLabel('Rephrase window (ms)');
      await window.click();
      await window.press('Control+a');
      await window.pressSequentially('1e4');
      expect(await window.inputValue()).toBe('1e4');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses to overwrite what another admin saved since the page was read, keeping the draft; saving again replaces it', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/prompts');
    const before = (await f.admin('/v1/admin/config')) as { rating: boolean; thresholds: Record<string, number> };
    try {
      const rating = page.getByLabel('Rating mode: 1-5 stars instead of thumbs');
      const bounce = page.getByLabel('Bounce window (ms)');
      await rating.waitFor();
      // Another admin saves a new bounce window after this page was read.
      await f.admin('/v1/config', { method: 'PUT', json: { ...before, thresholds: { ...before.thresholds, bounceWindowMs: 4321 } } });

      await rating.setChecked(!before.rating);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Someone saved the prompt settings meanwhile').waitFor();
      expect(await f.admin('/v1/admin/config')).toMatchObject({ rating: before.rating, thresholds: { bounceWindowMs: 4321 } });
      expect(await rating.isChecked()).toBe(!before.rating);

      // Saved again, knowingly, the draft replaces theirs.
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await f.admin('/v1/admin/config')).toMatchObject({ rating: !before.rating, thresholds: { bounceWindowMs: Number(await bounce.inputValue()) } });
      expect(problems).toEqual([]);
    } finally {
      await f.admin('/v1/config', { method: 'PUT', json: before });
      await context.close();
    }
  });
});

describe('prompt settings saved with a double click', () => {
  it('saves once, and says it saved, not that someone else saved meanwhile', async () => {
    const f = fixture();
    const before = (await f.admin('/v1/admin/config')) as { thresholds: Record<string, number> };
    const saves = holdingSaves('/v1/config');
    const { page, context, problems } = await openConsole(browser(), f, '/admin/prompts', { routes: saves.routes });
    try {
      const bounce = page.getByLabel('Bounce window (ms)');
      await bounce.waitFor();
      await bounce.fill('4711');
      await doubleClickSave(page, saves, 'rf-prompts-page .actions [role="status"]');
      expect(await f.admin('/v1/admin/config')).toMatchObject({ thresholds: { bounceWindowMs: 4711 } });
      expect(problems).toEqual([]);
    } finally {
      saves.release();
      await f.admin('/v1/config', { method: 'PUT', json: before });
      await context.close();
    }
  });
});

describe('prompt settings saved while typing', () => {
  it('keeps what is typed while a save is on its way, rather than replacing it with the saved config', async () => {
    const f = fixture();
    const before = (await f.admin('/v1/admin/config')) as { thresholds: Record<string, number> };
    // The save is held until the reader has typed more.
    let sent!: () => void;
    const saving = new Promise<void>((resolve) => (sent = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { page, context, problems } = await openConsole(browser(), f, '/admin/prompts', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === '/v1/config',
          async (route) => {
            if (route.request().method() !== 'PUT') return route.continue();
            sent();
            await released;
            return route.continue();
          },
        ),
    });
    try {
      const bounce = page.getByLabel('Bounce window (ms)');
      const dwell = page.getByLabel('Citation dwell for its prompt (ms)');
      await bounce.waitFor();
      await bounce.fill('4567');
      await page.getByRole('button', { name: 'Save' }).click();
      await saving;
      await dwell.fill('7654');
      release();
      await page.getByText('Saved.').waitFor();
      // The save stored what was sent; what was typed after it stays in its field, to be saved next.
      expect(await f.admin('/v1/admin/config')).toMatchObject({ thresholds: { bounceWindowMs: 4567, focusedDwellMs: before.thresholds.focusedDwellMs } });
      expect(await bounce.inputValue()).toBe('4567');
      expect(await dwell.inputValue()).toBe('7654');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(async () => ((await f.admin('/v1/admin/config')) as typeof before).thresholds.focusedDwellMs).toBe(7654);
      expect(problems).toEqual([]);
    } finally {
      release();
      await f.admin('/v1/config', { method: 'PUT', json: before });
      await context.close();
    }
  });
});
