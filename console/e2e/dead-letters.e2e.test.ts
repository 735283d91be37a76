/** The dead letters page: queued events the consumer could not write, listed as text and replayed from the keyboard. */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCollector, startLocalCollector } from '../../scripts/local-collector.ts';
import { query } from '../../scripts/local-d1-sql.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { DeadLetters, WorstTrace } from '../api/types.ts';
import { axe } from './axe.ts';
import { keepDeadLetters } from './dead-letters.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

const run = `dl-${Date.now().toString(36)}`;
/** A correction that would add an element, or run script, if rendered as HTML. */
const payload = `wrong <img src=x onerror="window.__xss=1"> refund`;

const rows = (page: Page) => page.locator('rf-dead-letters-page table.dead-letters tbody tr');
const listed = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
const empty = (page: Page) => page.locator('rf-dead-letters-page [data-field="no-dead-letters"]');

/** The element with keyboard focus, through shadow roots. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return `${el?.localName}:${el?.textContent?.trim()}`;
  });

describe('dead letters', () => {
  it('says nothing is waiting, and in direct mode that there is nothing to replay; lists them as text and replays them from the keyboard', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/dead-letters');
    try {
      await expect
        .poll(() => empty(page).textContent())
        .toBe(
          'Nothing is waiting: no queued event failed to be written. The collector writes events to D1 directly (EVENTS_INGEST = "direct"): none is queued, so there is nothing to replay.',
        );
      expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
      expect(await page.locator('rf-console nav a[aria-current="page"]').textContent()).toBe('Dead letters');
      expect(await page.title()).toBe('Dead letters · Throwaway local collector · rag-feedback console');
      expect(await axe(page)).toEqual([]);

      // Kept from a time in queue mode: listed, and replayed, whatever the mode now.
      const { traces } = await f.admin<{ traces: WorstTrace[] }>('/v1/admin/worst-traces');
      const { ids, eventIds } = await keepDeadLetters(f.collector.persistTo, { traceId: traces[0]!.traceId, tag: `${run}-listed`, correction: payload });
      const api = await f.admin<DeadLetters>('/v1/admin/dead-letters');
      expect(api.deadLetters.map((d) => d.id)).toEqual(ids);
      await page.reload();
      await rows(page).first().waitFor();
      expect(await listed(page)).toEqual(ids);
      // Stored (and the message id), attempts, last error, events, preview.
      const writable = page.locator(`rf-dead-letters-page tr[data-id="${ids[0]}"] td`);
      const unwritable = page.locator(`rf-dead-letters-page tr[data-id="${ids[1]}"] td`);
      expect(await writable.nth(0).textContent()).toContain(ids[0]);
      expect(await writable.nth(1).textContent()).toBe('1');
      expect(await writable.nth(2).textContent()).toBe('Error: D1_ERROR: database is locked');
      expect(await unwritable.nth(2).textContent()).toBe('Error: D1_ERROR: NOT NULL constraint failed: feedback_events.trace_id: SQLITE_CONSTRAINT');
      expect(await writable.nth(3).textContent()).toBe('4');
      expect(await writable.nth(4).locator('li').allTextContents()).toEqual([
        `correction · ${traces[0]!.traceId} {"text":"wrong <img src=x onerror=\\"window.__xss=1\\"> refund"}`,
        `citation_click · ${traces[0]!.traceId} {"chunkId":"c1"}`,
        `citation_click · ${traces[0]!.traceId} {"chunkId":"c2"}`,
        '+1 more',
      ]);
      expect(await unwritable.nth(1).textContent()).toBe('2');
      expect(await unwritable.nth(4).locator('li').allTextContents()).toEqual([
        'correction · – {"text":"wrong <img src=x onerror=\\"window.__xss=1\\"> refund"}',
      ]);
      // What a user typed stays text: no element made, no script run.
      expect(await page.locator('rf-dead-letters-page tbody img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss ?? null)).toBeNull();
      expect(await axe(page)).toEqual([]);

      // Replay from the keyboard: it says what it did, lists those left, and keeps focus on the button.
      await page.locator('rf-dead-letters-page h1').focus();
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('button:Replay');
      await page.keyboard.press('Enter');
      const outcome = page.locator('rf-dead-letters-page [data-field="replayed"]');
      await expect.poll(() => outcome.textContent()).toBe('Replayed: 1 written, 1 failed again. 1 waiting.');
      expect(await outcome.getAttribute('role')).toBe('status');
      expect(await listed(page)).toEqual([ids[1]]);
      expect(await unwritable.nth(1).textContent()).toBe('3');
      expect(await focused(page)).toBe('button:Replay');
      // In D1: the events written once, the one written dead letter forgotten.
      const stored = await query<{ event_id: string }>(`select event_id from feedback_events where event_id like '${run}-listed-%' order by event_id`, {
        persistTo: f.collector.persistTo,
      });
      expect(stored.map((r) => r.event_id)).toEqual([...eventIds].sort());
      expect((await f.admin<DeadLetters>('/v1/admin/dead-letters')).deadLetters.map((d) => d.id)).toEqual([ids[1]]);

      // In Chinese too.
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => outcome.textContent()).toBe('重放完成：写入 1 条，再次失败 1 条。还有 1 条在等待。');
      await page.getByRole('heading', { name: '死信', level: 1 }).waitFor();
      expect(await axe(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside the list what the collector answered when a replay fails, and lists them again', async () => {
    const f = fixture();
    const { traces } = await f.admin<{ traces: WorstTrace[] }>('/v1/admin/worst-traces');
    await keepDeadLetters(f.collector.persistTo, { traceId: traces[0]!.traceId, tag: `${run}-refused`, correction: payload });
    const { page, context, problems } = await openConsole(browser(), f, '/admin/dead-letters', {
      routes: (ctx) =>
        ctx.route('**/v1/admin/dead-letters/replay', (route) =>
          route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"restarting"}}' }),
        ),
    });
    try {
      await rows(page).first().waitFor();
      const before = await listed(page);
      expect(before.length).toBeGreaterThan(1);
      await page.getByRole('button', { name: 'Replay' }).click();
      const alert = page.locator('rf-dead-letters-page p.error[role="alert"]');
      await expect.poll(() => alert.textContent()).toBe('The collector answered 503: restarting');
      expect(await page.locator('rf-dead-letters-page [data-field="replayed"]').textContent()).toBe('');
      await expect.poll(() => listed(page)).toEqual(before);
      expect(await focused(page)).toBe('button:Replay');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is not shown to a viewer key: no link, and the page says it needs an admin key without asking for them', async () => {
    const f = fixture();
    const asked: string[] = [];
    const { page, context, problems } = await openConsole(browser(), f, '/admin/dead-letters', {
      asViewer: true,
      routes: (ctx) =>
        ctx.route('**/v1/admin/**', (route) => {
          asked.push(new URL(route.request().url()).pathname);
          return route.continue();
        }),
    });
    try {
      await expect.poll(() => page.locator('rf-console [data-field="viewer-only"] h1').textContent()).toBe('This page needs an admin key');
      expect(await page.locator('rf-console nav a').allTextContents()).toEqual(['Loop health', 'Chunks', 'Models']);
      expect(asked.filter((p) => p.startsWith('/v1/admin/dead-letters'))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('dead letters with events through a queue', () => {
  let collector: LocalCollector | undefined;
  beforeAll(async () => {
    collector = await startLocalCollector({ vars: { EVENTS_INGEST: 'queue' } });
  }, 120_000);
  afterAll(async () => {
    await collector?.stop();
  });

  it('says nothing is waiting, without the direct mode’s words', async () => {
    const { page, context, problems } = await openConsole(browser(), { collector: collector! }, '/admin/dead-letters');
    try {
      await expect.poll(() => empty(page).textContent()).toBe('Nothing is waiting: no queued event failed to be written.');
      expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
