/** The chunks page: citation click-through per chunk, least clicked first, its filters the address. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ChunkUsage } from '../api/types.ts';
import { axe } from './axe.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();

/** A chunk id and document id that would add an element, or run script, if rendered as HTML. */
const generic = { chunkId: `generic <img src=x onerror="window.__xss=1">`, sourceDocId: 'faq <b>bold</b>.md', text: 'We are here to help with your order.' };
const refund = { chunkId: 'refund-window', sourceDocId: 'refunds.md', text: 'Opened items can be refunded within 14 days.' };
const run = `chunks-${Date.now().toString(36)}`;

/** 22 answers showing both chunks first, each in its own session; the refund one clicked in 11, the generic one never. */
const traces: TraceInput[] = Array.from({ length: 22 }, (_, i) => ({
  traceId: `${run}-${i}`,
  sessionId: `${run}-s${i}`,
  query: `Can I return opened item number ${i}?`,
  retrievedChunks: [
    { ...generic, score: 0.9, rank: 1 },
    { ...refund, score: 0.8, rank: 2 },
  ],
  answer: 'Yes, within 14 days [2].',
  model: 'demo-llm',
  createdAt: Date.now() - 3_600_000 + i * 60_000,
}));

const fixture = useSeededCollector(async (f) => {
  await f.admin('/v1/traces', { method: 'POST', json: traces, key: f.collector.keys.server });
  const events = traces.slice(0, 11).map((t, i) => ({
    eventId: `${run}-click-${i}`,
    traceId: t.traceId,
    sessionId: t.sessionId,
    clientTs: t.createdAt + 20_000,
    signalType: 'citation_click',
    detail: { chunkId: refund.chunkId },
  }));
  await f.admin('/v1/events', { method: 'POST', json: { events }, key: f.collector.keys.write });
});

const rows = (page: Page) => page.locator('rf-chunks-page table.chunks tbody tr');
const listed = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-chunk')));

describe('chunks', () => {
  it('lists the chunks shown often, least clicked first, as text; sorts and filters by the address, from the keyboard', async () => {
    const f = fixture();
    const all: { chunks: ChunkUsage[] } = await f.admin('/v1/admin/chunks');
    expect(all.chunks.map((c) => c.chunkId)).toContain(generic.chunkId);
    const { page, context, problems } = await openConsole(browser(), f, '/admin/chunks');
    try {
      await rows(page).first().waitFor();
      expect(await listed(page)).toEqual(all.chunks.map((c) => c.chunkId));
      // The tab is named for this page, not for the trace view's chunks section.
      await expect.poll(() => page.title()).toBe('Chunks · Throwaway local collector · rag-feedback console');
      const row = page.locator('rf-chunks-page tr[data-chunk="refund-window"]');
      // Chunk and document, owner, shown first, retrieved, clicks, click-through, focused reads, copies, flags.
      expect(await row.locator('td').allTextContents()).toEqual(['refund-windowrefunds.md', 'no owner', '22', '22', '11', '50%', '0', '0', '0']);
      // The ids stay text: no element made, no script run.
      const payload = page.locator('rf-chunks-page tr', { has: page.locator('span.mono', { hasText: generic.chunkId }) });
      expect(await payload.locator('span.mono').allTextContents()).toEqual([generic.chunkId, generic.sourceDocId]);
      expect(await page.locator('rf-chunks-page tbody img, rf-chunks-page tbody b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss ?? null)).toBeNull();
      expect(await axe(page)).toEqual([]);

      // The filters from the keyboard: the order chosen, the minimum typed, Enter applies them.
      const byFlags: { chunks: ChunkUsage[] } = await f.admin('/v1/admin/chunks?sort=flags&minShown=22');
      await page.getByLabel('Order').focus();
      await page.getByLabel('Order').selectOption('flags');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.getAttribute('name'))).toBe('minShown');
      await page.keyboard.type('22');
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).search).toBe('?sort=flags&minShown=22');
      await expect.poll(() => listed(page)).toEqual(byFlags.chunks.map((c) => c.chunkId));

      // The address alone restores them.
      await page.reload();
      await rows(page).first().waitFor();
      expect(await page.getByLabel('Order').inputValue()).toBe('flags');
      expect(await page.getByLabel('Shown first at least').inputValue()).toBe('22');

      // None shown that often: the empty state says so, in either language.
      await page.goto(`${f.collector.url}/admin/chunks?minShown=1000000`);
      const empty = page.locator('rf-chunks-page [data-field="no-chunks"]');
      await expect
        .poll(() => empty.textContent())
        .toBe('No chunk has been shown first at least 1000000 times yet. Lower the minimum to see chunks shown less often.');
      expect(await axe(page)).toEqual([]);
      await page.getByLabel('Language').selectOption('zh-CN');
      await expect.poll(() => empty.textContent()).toBe('还没有片段在前排展示过至少 1000000 次。降低下限可查看展示较少的片段。');
      await page.getByRole('heading', { name: '片段', level: 1 }).waitFor();
      await expect.poll(() => page.title()).toBe('片段 · Throwaway local collector · rag-feedback 控制台');
      expect(await axe(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the order the address names on back and forward, after the reader chose one', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/chunks');
    try {
      await rows(page).first().waitFor();
      const order = page.getByLabel('Order');
      await order.selectOption('flags');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(() => new URL(page.url()).search).toBe('?sort=flags');
      await page.goBack();
      await expect.poll(() => new URL(page.url()).search).toBe('');
      await expect.poll(() => order.inputValue()).toBe('ctr');
      await page.goForward();
      await expect.poll(() => new URL(page.url()).search).toBe('?sort=flags');
      await expect.poll(() => order.inputValue()).toBe('flags');
      await page.goBack();
      await expect.poll(() => order.inputValue()).toBe('ctr');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside the field what the collector refused in a hand-edited address', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/chunks?minShown=0');
    try {
      const field = page.getByLabel('Shown first at least');
      await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-chunks-page #filter-minShown-error').textContent()).toMatch(/^was refused by the collector: \S/);
      expect(await rows(page).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says beside each field what the collector refused when the address has more than one wrong', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/chunks?minShown=0&sort=bogus');
    try {
      const minShown = page.getByLabel('Shown first at least');
      await expect.poll(() => minShown.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-chunks-page select[name="sort"]').getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('rf-chunks-page #filter-minShown-error').textContent()).toMatch(/^was refused by the collector: \S/);
      expect(await page.locator('rf-chunks-page #filter-sort-error').textContent()).toMatch(/^was refused by the collector: \S/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is shown to a viewer key, which reads the loop’s figures', async () => {
    const f = fixture();
    const { page, context, problems } = await openConsole(browser(), f, '/admin/chunks', { asViewer: true });
    try {
      await expect.poll(() => page.locator('rf-console nav a').allTextContents()).toEqual(['Loop health', 'Chunks', 'Models']);
      await page.locator('rf-chunks-page tr[data-chunk="refund-window"]').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
