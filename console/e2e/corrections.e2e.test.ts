/** The corrections inbox as one is resolved after another. */
import { describe, expect, it } from 'vitest';
import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { Correction } from '../api/types.ts';
import { axe } from './axe.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();

/** A conversation whose follow-up carries a correction about the answer before it. */
const session = `inbox-moved-${Date.now().toString(36)}`;
const start = Date.now() - 3_600_000;
const turn = (i: number, query: string, answer: string): TraceInput => ({
  traceId: `${session}-${i}`,
  sessionId: session,
  turnIndex: i,
  query,
  retrievedChunks: [{ chunkId: `${session}-c${i}`, sourceDocId: 'refunds.md', text: answer, score: 0.9, rank: 1 }],
  answer,
  model: 'demo-llm',
  createdAt: start + i * 60_000,
});
const earlier = turn(0, 'And if the item was opened?', 'Opened items are refunded as store credit [1].');
const followUp = turn(1, 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days [1].');
const moved: FeedbackEventInput = {
  eventId: `${session}-e0`,
  traceId: followUp.traceId,
  sessionId: session,
  clientTs: start + 100_000,
  signalType: 'correction',
  detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
};

const fixture = useSeededCollector(async (f) => {
  await f.admin('/v1/traces', { method: 'POST', json: [earlier, followUp], key: f.collector.keys.server });
  await f.admin('/v1/events', { method: 'POST', json: { events: [moved] }, key: f.collector.keys.write });
});

describe('corrections inbox', () => {
  it('shows a correction sent under a follow-up with the earlier question it is about, and the follow-up it was sent under', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/corrections');
    try {
      const item = page.locator(`rf-corrections-page article[data-event="${moved.eventId}"]`);
      await item.waitFor();
      expect(await item.locator('[data-field="query"]').textContent()).toBe(earlier.query);
      expect(await item.getByRole('link', { name: earlier.traceId, exact: true }).getAttribute('href')).toBe(`/admin/traces/${earlier.traceId}`);
      expect(await item.locator('[data-field="sent-under"]').textContent()).toBe(followUp.query);
      await item.getByRole('link', { name: followUp.traceId, exact: true }).click();
      await page.getByRole('heading', { name: `Trace ${followUp.traceId}` }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside the filter what the collector refused in a hand-edited address, and shows the inbox once it is put right', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/corrections?status=closed');
    try {
      const show = page.locator('rf-corrections-page select[aria-describedby="filter-status-error"]');
      const error = page.locator('rf-corrections-page #filter-status-error');
      await expect.poll(() => show.getAttribute('aria-invalid')).toBe('true');
      expect(await error.textContent()).toMatch(/^was refused by the collector: \S/);
      expect(await page.locator('rf-corrections-page article.correction').count()).toBe(0);
      expect(await axe(page)).toEqual([]);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => error.textContent()).toBe('被收集服务拒绝');

      await show.selectOption('open');
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await page.locator('rf-corrections-page article.correction').first().waitFor();
      expect(await show.getAttribute('aria-invalid')).toBe('false');
      expect(await error.textContent()).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says when the inbox lists as many as the collector gives, older corrections left out, and not otherwise', async () => {
    const f = fixture();
    const asked: (string | null)[] = [];
    const many = (status: string) =>
      Array.from(
        { length: 200 },
        (_, i): Correction => ({
          ...{ eventId: `many-${i}`, traceId: `many-t${i}`, query: `Question ${i}?`, sentUnder: null, text: 'Should say 14 days', source: null },
          ...{
            sourceDocId: 'refunds.md',
            owner: 'docs-team',
            confidence: 0.9,
            status: status as Correction['status'],
            note: null,
            resolvedAt: null,
            createdAt: start,
          },
        }),
      );
    const { page, context, problems } = await openConsole(browser(), f, '/admin/corrections', {
      routes: (ctx) =>
        ctx.route(
          (url) => url.pathname === '/v1/admin/corrections',
          (route) => {
            const url = new URL(route.request().url());
            asked.push(url.searchParams.get('limit'));
            // The resolved list as the collector has it; the open one full.
            if (url.searchParams.get('status') === 'resolved') return route.continue();
            const body = { owners: [{ owner: 'docs-team', corrections: many('open') }] };
            return route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) });
          },
        ),
    });
    try {
      const cut = page.locator('rf-corrections-page [data-field="cut"]');
      await page.locator('rf-corrections-page article.correction').first().waitFor();
      expect(await cut.textContent()).toBe('Only the newest 200 are listed; older ones are left out.');
      await page.locator('rf-corrections-page select').first().selectOption('resolved');
      await page.locator('rf-corrections-page article.correction, rf-corrections-page .empty').first().waitFor();
      await expect.poll(() => asked).toEqual(['200', '200']);
      expect(await cut.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

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
  it('says in the console’s language when a correction was moved to another owner while being resolved, and lists it under that owner', async () => {
    const f = fixture();
    let moved: string | undefined;
    const { page, context, problems } = await openConsole(browser(), f, '/admin/corrections', {
      routes: async (ctx) => {
        // The nightly job moves the correction to another document as it is resolved.
        await ctx.route(
          (url) => url.pathname.endsWith('/resolve'),
          (route) => {
            moved = decodeURIComponent(new URL(route.request().url()).pathname.split('/').at(-2)!);
            const error = { code: 'correction_rerouted', message: 'Correction was moved to another document', field: 'eventId' };
            return route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error }) });
          },
        );
        await ctx.route(
          (url) => url.pathname === '/v1/admin/corrections',
          async (route) => {
            const res = await route.fetch();
            const body = (await res.json()) as { owners: { owner: string | null; corrections: Correction[] }[] };
            if (!moved) return route.fulfill({ response: res, json: body });
            const it = body.owners.flatMap((g) => g.corrections).find((c) => c.eventId === moved)!;
            const owners = body.owners.map((g) => ({ ...g, corrections: g.corrections.filter((c) => c.eventId !== moved) }));
            return route.fulfill({ response: res, json: { owners: [...owners, { owner: 'billing-team', corrections: [{ ...it, owner: 'billing-team' }] }] } });
          },
        );
      },
    });
    try {
      const first = page.locator('rf-corrections-page article.correction').first();
      await first.waitFor();
      const id = await first.getAttribute('data-event');
      await first.getByLabel('What was changed').fill('rewrote refunds.md section 2');
      await first.getByRole('button', { name: 'Resolve' }).click();
      const alert = page.locator('rf-corrections-page p.error[role="alert"]');
      await expect
        .poll(() => alert.textContent())
        .toBe('This correction was moved to another document meanwhile and is still open: it is listed under its owner now. Resolve it again.');
      // Listed under its owner now, its note still typed.
      const group = page.locator('rf-corrections-page section', { has: page.getByRole('heading', { name: /^billing-team/ }) });
      await expect.poll(() => group.locator('article.correction').getAttribute('data-event')).toBe(id);
      expect(await group.getByLabel('What was changed').inputValue()).toBe('rewrote refunds.md section 2');
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => alert.textContent()).toBe('这条纠正在此期间被转到另一份文档，仍未处理：现已列在其负责人名下，请再次处理。');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
