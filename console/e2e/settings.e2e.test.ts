import { describe, expect, it } from 'vitest';
import { query } from '../../scripts/local-d1-sql.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import { doubleClickSave, holdingSaves, openConsole, refusingSaves, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('settings', () => {
  it('saves the loop settings, refusing what the shared schema refuses', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings');
    try {
      const minutes = page.getByLabel('Review time per week (minutes)');
      await minutes.waitFor();
      expect(await minutes.inputValue()).toBe('30');

      const seconds = page.getByLabel('Seconds per review item');
      await seconds.fill('0');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => seconds.getAttribute('aria-invalid')).toBe('true');
      expect(((await f.admin('/v1/admin/settings')) as { secondsPerReviewItem: number }).secondsPerReviewItem).toBe(20);

      // A field emptied is said to be empty, beside it, and nothing is saved.
      await seconds.fill('20');
      await minutes.fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => minutes.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-settings-page #reviewMinutesPerWeek-error').textContent()).toBe('must not be empty');
      expect(await seconds.getAttribute('aria-invalid')).toBe('false');
      expect(((await f.admin('/v1/admin/settings')) as { reviewMinutesPerWeek: number }).reviewMinutesPerWeek).toBe(30);

      await minutes.fill('60');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      await page.getByText('Review budget: 180 items a week').waitFor();
      expect(await f.admin('/v1/admin/settings')).toMatchObject({ reviewMinutesPerWeek: 60, secondsPerReviewItem: 20 });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says what the schema refused in the reader’s language', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', { locale: 'zh-CN' });
    try {
      const seconds = page.getByLabel('每个审核项的秒数');
      await seconds.fill('0');
      await page.getByLabel('评估门槛：nDCG@5 最小提升').fill('2');
      await page.getByLabel('每周审核时间（分钟）').fill('');
      await page.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => page.locator('rf-settings-page #secondsPerReviewItem-error').textContent()).toBe('不能小于 1');
      expect(await page.locator('rf-settings-page #reviewMinutesPerWeek-error').textContent()).toBe('不能为空');
      expect(await page.locator('rf-settings-page #gateMinGain-error').textContent()).toBe('不能大于 1');
      // Switching the language rewords the errors shown.
      await page.getByLabel('语言').selectOption('en');
      await expect.poll(() => page.locator('rf-settings-page #secondsPerReviewItem-error').textContent()).toBe('must be at least 1');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside a field what the API refused there, in the reader’s language; a field it does not show goes to the status line', async () => {
    const f = fixture();
    const refusals = ['retentionDays', 'notAField'];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', {
      routes: refusingSaves('/v1/admin/settings', 'invalid_settings', () => [{ field: refusals.shift()!, message: 'must be a multiple of 7' }]),
    });
    try {
      const retention = page.getByLabel('Raw data kept (days)');
      const error = page.locator('rf-settings-page #retentionDays-error');
      const status = page.locator('rf-settings-page form.settings [role="status"]');
      await retention.waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => retention.getAttribute('aria-invalid')).toBe('true');
      // A code the console knows: in English with the collector's own words, in Chinese from the code alone.
      expect(await error.textContent()).toBe('was refused by the collector: must be a multiple of 7');
      expect(await retention.getAttribute('aria-describedby')).toContain('retentionDays-error');
      expect(await retention.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      expect(await status.textContent()).toBe('');
      // Switching the language rewords it.
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => error.textContent()).toBe('被收集服务拒绝');

      // A field the form does not show: named in the status line, no field marked.
      await page.getByRole('button', { name: '保存' }).click();
      await expect.poll(() => status.textContent()).toBe('收集服务返回 400：不接受 notAField');
      expect(await page.locator('rf-settings-page form.settings [aria-invalid="true"]').count()).toBe(0);
      await page.getByLabel('语言').selectOption('en');
      await expect.poll(() => status.textContent()).toBe('The collector answered 400: it did not take notAField (must be a multiple of 7)');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('marks every field the API refused at once beside it, focus on the first in the form; a field it does not show goes to the status line; a code the console does not know keeps the API’s words, as text', async () => {
    const f = fixture();
    const fields = [
      { field: 'retentionDays', message: 'must be a multiple of 7' },
      { field: 'secondsPerReviewItem', message: 'is <b>too</b> short' },
      { field: 'notAField', message: 'is not a setting' },
      // A field refused twice is said twice beside it.
      { field: 'retentionDays', message: 'must be at most 3640' },
    ];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', {
      // A code of a collector newer than the console.
      routes: refusingSaves('/v1/admin/settings', 'over_plan', () => fields),
    });
    try {
      const retention = page.getByLabel('Raw data kept (days)');
      const seconds = page.getByLabel('Seconds per review item');
      await retention.waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => retention.getAttribute('aria-invalid')).toBe('true');
      expect(await seconds.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-settings-page #retentionDays-error').textContent()).toBe(
        'was refused by the collector: must be a multiple of 7; must be at most 3640',
      );
      // The API's words are shown as text, never read as markup.
      expect(await page.locator('rf-settings-page #secondsPerReviewItem-error').textContent()).toBe('was refused by the collector: is <b>too</b> short');
      expect(await page.locator('rf-settings-page #secondsPerReviewItem-error b').count()).toBe(0);
      expect(await page.locator('rf-settings-page form.settings [aria-invalid="true"]').count()).toBe(2);
      // Seconds comes first in the form.
      expect(await seconds.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
      expect(await page.locator('rf-settings-page form.settings [role="status"]').textContent()).toBe(
        'The collector answered 400: notAField: is not a setting',
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses to overwrite what another admin saved since the form was filled, keeping what was typed', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings');
    type Settings = { trainingMinConfirmed: number; reviewMinutesPerWeek: number };
    const before = (await f.admin('/v1/admin/settings')) as Settings;
    try {
      const threshold = page.getByLabel('Training threshold (confirmed items)');
      const minutes = page.getByLabel('Review time per week (minutes)');
      await threshold.waitFor();
      // Another admin saves a new threshold after this page was filled.
      await f.admin('/v1/admin/settings', { method: 'PUT', json: { ...before, trainingMinConfirmed: before.trainingMinConfirmed + 7 } });

      await minutes.fill('45');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Someone saved the settings meanwhile').waitFor();
      expect(await f.admin('/v1/admin/settings')).toMatchObject({
        trainingMinConfirmed: before.trainingMinConfirmed + 7,
        reviewMinutesPerWeek: before.reviewMinutesPerWeek,
      });
      // What was typed stays; what they saved is shown beside the field it changed.
      expect(await minutes.inputValue()).toBe('45');
      expect(await page.locator('rf-settings-page [data-field="theirs"]').allTextContents()).toEqual([`Saved meanwhile: ${before.trainingMinConfirmed + 7}`]);

      // Saved again, knowingly, it replaces theirs.
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved.').waitFor();
      expect(await f.admin('/v1/admin/settings')).toMatchObject({ trainingMinConfirmed: before.trainingMinConfirmed, reviewMinutesPerWeek: 45 });
      expect(await page.locator('rf-settings-page [data-field="theirs"]').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await f.admin('/v1/admin/settings', { method: 'PUT', json: before });
      await context.close();
    }
  });

  it('saves once for a double click on Save, and says it saved, not that someone else saved meanwhile', async () => {
    const f = fixture();
    const before = await f.admin('/v1/admin/settings');
    const saves = holdingSaves('/v1/admin/settings');
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', { routes: saves.routes });
    try {
      const minutes = page.getByLabel('Review time per week (minutes)');
      await minutes.waitFor();
      await minutes.fill('47');
      await doubleClickSave(page, saves, 'rf-settings-page [role="status"]');
      expect(await page.locator('rf-settings-page [data-field="theirs"]').count()).toBe(0);
      expect(await f.admin('/v1/admin/settings')).toMatchObject({ reviewMinutesPerWeek: 47 });
      expect(problems).toEqual([]);
    } finally {
      saves.release();
      await f.admin('/v1/admin/settings', { method: 'PUT', json: before });
      await context.close();
    }
  });

  it('goes on calling until the collector says the erasure is done, past calls that only rewrote models, the browser asking before the tab closes meanwhile and the console before signing out', async () => {
    const f = fixture();
    // The user's traces go in the first call; the models remembering their questions take two more.
    const answers = [
      { deleted: { traces: 3, events: 5, reviewItems: 1, corrections: 0 }, done: false },
      { deleted: { traces: 0, events: 0, reviewItems: 0, corrections: 0 }, done: false },
      { deleted: { traces: 0, events: 0, reviewItems: 0, corrections: 0 }, done: true },
    ];
    let calls = 0;
    // The second call is held until the page has been looked at mid-erasure.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page, context, problems } = await openConsole(browser(), f, '/admin/settings', {
      routes: (ctx) =>
        ctx.route('**/v1/admin/users/**', async (route) => {
          const answer = answers[calls++];
          if (calls === 2) await held;
          await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ userIdHash: 'u-1', ...answer }) });
        }),
    });
    try {
      await page.getByLabel('Hashed user id').fill('u-1');
      // Closing the tab asks first (the page cancels beforeunload) while the erasure is under way, and only then.
      const asksBeforeClosing = () =>
        page.evaluate(() => {
          const e = new Event('beforeunload', { cancelable: true });
          window.dispatchEvent(e);
          return e.defaultPrevented;
        });
      expect(await asksBeforeClosing()).toBe(false);
      await page.getByRole('button', { name: 'Erase…' }).click();
      await page.getByRole('dialog', { name: 'Erase user u-1?' }).getByRole('button', { name: 'Erase', exact: true }).click();
      // Under way, it says so, and a second erasure cannot start beside it (its counts would be split between the two).
      await page.getByText('Erasing u-1…').waitFor();
      expect(await page.getByRole('button', { name: 'Erase…' }).isDisabled()).toBe(true);
      expect(await asksBeforeClosing()).toBe(true);
      // Signing out asks first too (the erasure's next call would go without the key); told not to, it goes on.
      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toMatch(/^A user is being erased: signing out now stops it part way/);
      expect(await page.locator('rf-sign-in-page').count()).toBe(0);
      release();
      await page.getByText('Erased u-1: 3 traces, 5 events, 1 review items, 0 corrections.').waitFor();
      expect(calls).toBe(3);
      expect(await asksBeforeClosing()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('erases a hashed user id only after confirmation', { timeout: 90_000 }, async () => {
    const f = fixture();
    const userTraces = async (id: string) =>
      (await query<{ n: number }>(`select count(*) as n from traces where user_id_hash = '${id}'`, { persistTo: f.collector.persistTo }))[0]!.n;
    const [user] = (
      await query<{ id: string }>('select user_id_hash as id from traces where user_id_hash is not null group by user_id_hash order by count(*) desc limit 1', {
        persistTo: f.collector.persistTo,
      })
    ).map((r) => r.id);
    const before = await userTraces(user!);
    expect(before).toBeGreaterThan(0);
    const { page, context } = await openConsole(browser(), f, '/admin/settings');
    try {
      await page.getByLabel('Hashed user id').fill(user!);
      await page.getByRole('button', { name: 'Erase…' }).click();
      const dialog = page.getByRole('dialog', { name: `Erase user ${user}?` });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await userTraces(user!)).toBe(before);

      await page.getByRole('button', { name: 'Erase…' }).click();
      await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
      // Erasure deletes across every table holding the user's rows: slower than a page's usual wait on a busy machine.
      await page.getByText(`Erased ${user}: ${before} traces`).waitFor({ timeout: 30_000 });
      expect(await userTraces(user!)).toBe(0);
    } finally {
      await context.close();
    }
  });
});
