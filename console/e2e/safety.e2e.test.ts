/**
 * Safe by construction and usable by everyone: script and HTML in user text stay text on every
 * page, under the console's own CSP; axe-core finds nothing in either theme or language.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewQueue } from '../api/types.ts';
import { axe } from './axe.ts';
import { openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();

/** Each would run script or add an element if it were rendered as HTML. */
const payload = (where: string) => `${where} <img src=x onerror="window.__xss='${where}'"><script>window.__xss='${where}'</script><b>bold</b>`;
const session = `xss-${Date.now().toString(36)}`;
const chunk = { chunkId: 'xss-chunk', sourceDocId: 'refunds.md', text: `${payload('chunk')} Opened items refund policy` };
const trace: TraceInput = {
  traceId: `${session}-1`,
  sessionId: session,
  turnIndex: 0,
  query: payload('query'),
  retrievedChunks: [{ ...chunk, score: 0.9, rank: 1 }],
  answer: `${payload('answer')} [1]`,
  model: 'demo-llm',
  createdAt: Date.now() - 3_600_000,
};

const fixture = useSeededCollector(async (f) => {
  await f.admin('/v1/traces', { method: 'POST', json: [trace], key: f.collector.keys.server });
  const events = [
    { signalType: 'thumbs_down' },
    { signalType: 'wrong_source', detail: { chunkId: chunk.chunkId } },
    { signalType: 'correction', detail: { text: payload('correction'), source: payload('source') } },
  ].map((e, i) => ({
    eventId: `${session}-e${i}`,
    traceId: trace.traceId,
    sessionId: session,
    clientTs: trace.createdAt + 10_000 * (i + 1),
    shownMs: 20_000,
    ...e,
  }));
  await f.admin('/v1/events', { method: 'POST', json: { events }, key: f.collector.keys.write });
});

/** Elements under the console's shadow roots that only HTML parsing of user text could have made. */
const injected = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (['IMG', 'SCRIPT', 'B'].includes(el.tagName) && root !== document) found.push(el.outerHTML);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    return { found, xss: (window as any).__xss ?? null };
  });

/** All text the console shows, through its shadow roots. */
const shownText = (page: Page) =>
  page.evaluate(() => {
    const out: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (!el.shadowRoot) continue;
        out.push(el.shadowRoot.textContent ?? '');
        walk(el.shadowRoot);
      }
    };
    walk(document);
    return out.join('\n');
  });

async function reviewItemOfPayload(): Promise<string> {
  const queue: ReviewQueue = await fixture().admin('/v1/admin/review?limit=500');
  const item = queue.items.find((i) => i.chunk.chunkId === chunk.chunkId);
  expect(item, 'the payload trace was mined into the queue').toBeDefined();
  return item!.id;
}

describe('user text is inert', () => {
  it('on every page: script and HTML in a query, an answer, a correction and a chunk show as text', async () => {
    const f = fixture();
    const itemId = await reviewItemOfPayload();
    const { page, context, problems } = await openConsole(browser(), f, `/admin/review?item=${encodeURIComponent(itemId)}`);
    try {
      await page.locator(`rf-review-page article[data-item="${itemId}"] .traces a`).first().waitFor();
      const review = await shownText(page);
      expect(review).toContain(payload('query'));
      expect(review).toContain('chunk <img src=x onerror=');
      // The user's correction, quoted beside the trace it came with.
      expect(review).toContain(payload('correction'));
      expect(await injected(page)).toEqual({ found: [], xss: null });

      await page.goto(`${f.collector.url}/admin/traces/${trace.traceId}`);
      await page.locator('rf-trace-page table.signals').waitFor();
      // Open every chunk's text, so the chunk payload is rendered too.
      for (const d of await page.locator('rf-trace-page details').all()) await d.locator('summary').click();
      const view = await shownText(page);
      for (const where of ['query', 'answer', 'chunk']) expect(view).toContain(`${where} <img src=x onerror="window.__xss='${where}'">`);
      expect(view).toContain('correction <img src=x');
      expect(await injected(page)).toEqual({ found: [], xss: null });
      // Each user text takes its direction from its own letters, so a right-to-left question reads right to left.
      const bidi = await page.locator('rf-trace-page .text').evaluateAll((els) => els.map((e) => getComputedStyle(e).unicodeBidi));
      expect(bidi.length).toBeGreaterThan(3);
      expect(new Set(bidi)).toEqual(new Set(['plaintext']));

      await page.goto(`${f.collector.url}/admin/traces?days=30`);
      await page.locator(`rf-worst-page tr[data-trace="${trace.traceId}"]`).waitFor();
      expect(await shownText(page)).toContain(payload('query'));
      expect(await injected(page)).toEqual({ found: [], xss: null });

      await page.goto(`${f.collector.url}/admin/corrections`);
      await page.locator(`rf-corrections-page article[data-event="${session}-e2"]`).waitFor();
      const inbox = await shownText(page);
      for (const where of ['query', 'correction', 'source']) expect(inbox).toContain(payload(where));
      expect(await injected(page)).toEqual({ found: [], xss: null });

      await page.goto(`${f.collector.url}/admin/documents`);
      await page.locator('rf-documents-page table.documents').waitFor();
      expect(await injected(page)).toEqual({ found: [], xss: null });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('accessibility (axe-core in Chromium)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`finds no violation on any page in the ${colorScheme} theme`, async () => {
      const f = fixture();
      const signedOut = await openConsole(browser(), f, '/admin/review', { signedIn: false, colorScheme });
      try {
        await signedOut.page.getByLabel('Admin key').waitFor();
        expect(await axe(signedOut.page)).toEqual([]);
        await signedOut.page.evaluate(() => sessionStorage.setItem('rf-console-admin-key', 'rfa_revoked_key_000000000000000000'));
        await signedOut.page.reload();
        await signedOut.page.getByRole('heading', { name: 'Your admin key was not accepted' }).waitFor();
        expect(await axe(signedOut.page)).toEqual([]);
      } finally {
        await signedOut.context.close();
      }

      const { page, context } = await openConsole(browser(), f, '/admin/review', { colorScheme });
      try {
        await page.locator('rf-review-page article.item .traces a').first().waitFor();
        expect(await axe(page)).toEqual([]);
        await page.keyboard.press('?');
        await page.getByRole('dialog').waitFor();
        expect(await axe(page)).toEqual([]);
        await page.keyboard.press('Escape');

        await page.goto(`${f.collector.url}/admin/traces/${trace.traceId}`);
        await page.locator('rf-trace-page table.signals').waitFor();
        for (const d of await page.locator('rf-trace-page details').all()) await d.locator('summary').click();
        expect(await axe(page)).toEqual([]);

        for (const [path, ready] of [
          ['/admin/health', 'rf-health-page rf-line-chart'],
          ['/admin/traces', 'rf-worst-page table.worst'],
          ['/admin/documents', 'rf-documents-page table.documents'],
          ['/admin/settings', 'rf-settings-page form.settings'],
          ['/admin/prompts', 'rf-prompts-page rf-widget-preview rag-feedback'],
          ['/admin/models', 'rf-models-page .serving'],
          ['/admin/corrections', 'rf-corrections-page article'],
        ] as const) {
          await page.goto(`${f.collector.url}${path}`);
          // A page whose data or widget a busy machine serves late is waited for, not failed.
          await page.locator(ready).first().waitFor({ timeout: 20_000 });
          expect(await axe(page), path).toEqual([]);
        }

        await page.getByLabel('Language').selectOption('zh-CN');
        await page.getByRole('heading', { name: '纠正', level: 1 }).waitFor();
        expect(await axe(page)).toEqual([]);
        await page.goto(`${f.collector.url}/admin/traces/${trace.traceId}`);
        await page.getByRole('heading', { name: `链路 ${trace.traceId}` }).waitFor();
        expect(await axe(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
