/**
 * A sample of each week's sessions played in headless Chromium on the demo's page, through the
 * real `<rag-feedback>`: the question typed, the answer read from the page, citations clicked
 * (their previews opened and closed), thumbs pressed, answers regenerated and questions re-asked
 * in other words as the user model decides, so clicks, previews, votes, regenerates and the
 * widget's own rephrase detection reach the collector by the widget's delivery path. Copies and
 * corrections are left to the HTTP volume. BEIR documents are one chunk each, so a citation's
 * chunk id is its document id.
 */
import type { Browser } from 'playwright-core';
import { askOnPage, regenerateOnPage } from '../../demo/page-driver.ts';
import { launch } from '../../tests/e2e/chromium.ts';
import type { SessionsOptions } from './traffic.ts';
import { react } from './user-model.ts';

/** The widget discounts a vote faster than reading the answer (at most 5 s): a real user takes that long. */
const READ_BEFORE_VOTE_MS = 5_500;

async function session(browser: Browser, o: SessionsOptions, start: number): Promise<{ asks: number; lastTraceId?: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  let asks = 0;
  let lastTraceId: string | undefined;
  try {
    await page.goto(o.demoUrl);
    await page.waitForSelector('body[data-ready="true"]');
    const q = o.population.draw(o.rng);
    let text = o.population.phrase(o.rng, q);
    for (let turn = 0; turn < 3; turn++) {
      o.clock.set(start + turn * 60_000);
      o.asked(text, q);
      const el = await askOnPage(page, text);
      asks++;
      lastTraceId = (await el.getAttribute('trace-id')) ?? undefined;
      const links = el.locator('.sources a[data-chunk-id]');
      const ids = await links.evaluateAll((as) => as.map((a) => (a as HTMLElement).dataset.chunkId!));
      const reaction = react(
        o.rng,
        ids.map((chunkId) => ({ chunkId, sourceDocId: chunkId })),
        q.relevant,
        undefined,
        turn,
      );
      for (const e of reaction.events) {
        const chunkId = e.detail?.chunkId as string | undefined;
        if (e.signalType === 'citation_click' && chunkId) {
          // By position, not by a selector: an id may hold quotes or brackets (Wikipedia titles).
          const link = links.nth(ids.indexOf(chunkId));
          await link.click();
          await page.waitForTimeout(300);
          await link.click();
        } else if (e.signalType === 'thumbs_up' || e.signalType === 'thumbs_down') {
          await page.waitForTimeout(READ_BEFORE_VOTE_MS);
          await el.locator(`[part~="${e.signalType === 'thumbs_up' ? 'vote-up' : 'vote-down'}"]`).click();
        }
      }
      if (reaction.next === 'regenerate') {
        o.clock.set(start + turn * 60_000 + 20_000);
        const regenerated = await regenerateOnPage(page);
        asks++;
        lastTraceId = (await regenerated.getAttribute('trace-id')) ?? undefined;
        break;
      }
      if (reaction.next !== 'rephrase') break;
      text = o.population.reword(o.rng, q);
    }
    // Send what the outbox holds now, as the page would on its next flush.
    await page.evaluate(async () => {
      const widget = (await import('/widget/rag-feedback.js' as string)) as { RagFeedback: { flush(): Promise<void> } };
      await widget.RagFeedback.flush();
    });
  } finally {
    await context.close();
  }
  return { asks, ...(lastTraceId && { lastTraceId }) };
}

export async function browserWeek(o: SessionsOptions): Promise<{ asks: number; lastTraceId?: string }> {
  const browser = await launch();
  let asks = 0;
  let lastTraceId: string | undefined;
  try {
    for (let i = 0; i < o.sessions; i++) {
      const start = o.weekStart + Math.floor(o.rng() * (o.weekMs - 3_600_000));
      const s = await session(browser, o, start);
      asks += s.asks;
      lastTraceId = s.lastTraceId ?? lastTraceId;
    }
  } finally {
    await browser.close();
  }
  return { asks, ...(lastTraceId && { lastTraceId }) };
}
