/**
 * The demo end to end: real Chromium on the demo page, the demo backend, and a real collector
 * under wrangler dev with its own project whose allowed origin is the demo's. Asserts on what the
 * collector stored: the trace the backend logged and the feedback the widget sent for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionProject } from '../collector/auth/provision.ts';
import { axe } from '../console/e2e/axe.ts';
import { holdPort } from '../scripts/free-port.ts';
import { copyMigratedD1 } from '../scripts/local-collector.ts';
import { queryEach } from '../scripts/local-d1-sql.ts';
import { type DevServer, startDev } from '../scripts/wrangler.ts';
import { useBrowser } from '../tests/e2e/helpers.ts';
import type { RagFeedbackElement } from '../widget/index.ts';
import { DOC_EXAMPLES } from './corpus/docs.ts';
import { askOnPage, regenerateOnPage } from './page-driver.ts';
import { standInCollector } from './server/collector-stand-in.fixture.ts';
import { type Demo, startDemo } from './server/index.ts';

let persistTo: string;
let collector: DevServer;
let demo: Demo;
const browser = useBrowser();
let adminKey: string;

beforeAll(async () => {
  persistTo = mkdtempSync(join(tmpdir(), 'rf-demo-'));
  // The demo's address is an allowed origin of the collector, which starts first: its port is held till then.
  const demoPort = await holdPort();
  copyMigratedD1(persistTo);
  const p = await provisionProject({ id: 'demo-e2e', name: 'demo end to end', origins: [`http://127.0.0.1:${demoPort.port}`] });
  await queryEach(p.statements, { persistTo });
  adminKey = p.keys.admin;
  collector = await startDev({ persistTo, logLevel: 'warn', vars: { RATE_LIMIT_IP_PER_MIN: '100000' } }).finally(demoPort.release);
  demo = await startDemo({ port: demoPort.port, collectorUrl: collector.url, serverKey: p.keys.server, writeKey: p.keys.write, log: () => {} });
}, 120_000);

afterAll(async () => {
  await demo?.close();
  await collector?.stop();
  rmSync(persistTo, { recursive: true, force: true });
});

interface Stored {
  trace: { sessionId: string; turnIndex: number; model: string; answer: string } | null;
  retrievedChunks: unknown[];
  rerankedChunks: unknown[];
  events: { signalType: string; detail: Record<string, unknown> }[];
}

async function stored(traceId: string, check: (s: Stored) => boolean, timeoutMs = 15_000): Promise<Stored> {
  const deadline = Date.now() + timeoutMs;
  let last: Stored | undefined;
  while (Date.now() < deadline) {
    const res = await fetch(`${collector.url}/v1/traces/${traceId}`, { headers: { authorization: `Bearer ${adminKey}` } });
    if (res.ok) {
      last = (await res.json()) as Stored;
      if (check(last)) return last;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`trace ${traceId} never matched; last seen: ${JSON.stringify(last)?.slice(0, 500)}`);
}

/** Holds the page's questions to `/api/ask` that `hold` picks (by their order, from 0) until `release()`; `asked()` counts them all. */
async function holdAsks(page: Page, hold: (n: number) => boolean) {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  let asked = 0;
  await page.route('**/api/ask', async (route) => {
    if (hold(asked++)) await held;
    await route.continue();
  });
  return { asked: () => asked, release: () => release() };
}

/** The demo's page at `url` (the shared demo's by default), ready for a question. */
async function openPage(url = demo.url): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser().newContext()).newPage();
  page.setDefaultTimeout(10_000);
  // A whole page load waits on the server too, which a busy 2-core machine can hold up for seconds.
  page.setDefaultNavigationTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

/** A demo of its own, sending to the collector at `collectorUrl` with test keys. */
const demoSendingTo = (collectorUrl: string) =>
  startDemo({ port: 0, collectorUrl, serverKey: 'rfs_test', writeKey: 'rfw_test', log: () => {}, closeTimeoutMs: 1_000 });

describe('the demo page', () => {
  it('answers inside <rag-feedback>, and the trace and the feedback on it reach the collector', async () => {
    const { page, errors } = await openPage();
    const el = await askOnPage(page, 'How do I deploy to Cloudflare?');
    const traceId = (await el.getAttribute('trace-id'))!;
    expect(await el.getAttribute('query')).toBe('How do I deploy to Cloudflare?');
    // No model is promoted in this project: the page says the sources are in retrieval's order.
    expect(await page.locator('.reply .ranking').textContent()).toBe('Sources ranked by BM25');
    const link = el.locator('.sources a[data-chunk-id]').first();
    const chunkId = (await link.getAttribute('data-chunk-id'))!;
    // Every link citing a source names it by number and title, as the widget's wrong-source list shows it.
    expect(await link.getAttribute('title')).toBe(`[${await link.locator('xpath=..').getAttribute('value')}] ${await link.textContent()}`);
    const preview = el.locator('[data-preview-for]').first();
    expect(await preview.isHidden()).toBe(true);
    expect(await link.getAttribute('aria-expanded')).toBe('false');
    await link.click();
    expect(await preview.isVisible()).toBe(true);
    // A screen reader says the link opened its preview, on every link citing that source.
    for (const cite of await el.locator(`a[data-chunk-id="${chunkId}"]`).all()) expect(await cite.getAttribute('aria-expanded')).toBe('true');
    await el.locator('[part~="vote-down"]').click();

    const s = await stored(traceId, (x) => x.trace !== null && ['thumbs_down', 'citation_click'].every((t) => x.events.some((e) => e.signalType === t)));
    expect(s.trace).toMatchObject({ turnIndex: 0, model: 'demo-extractive', sessionId: await el.getAttribute('session-id') });
    expect(s.retrievedChunks.length).toBeGreaterThan(0);
    expect(s.rerankedChunks.length).toBe(Math.min(5, s.retrievedChunks.length));
    expect(s.events.find((e) => e.signalType === 'citation_click')!.detail).toMatchObject({ chunkId });
    expect(errors).toEqual([]);
  });

  it('regenerates: the old answer reports it, the new one keeps the turn, the next question takes the next turn', async () => {
    const { page } = await openPage();
    await askOnPage(page, 'What rate limits are there?');
    const first = page.locator('rag-feedback').first();
    const oldId = (await first.getAttribute('trace-id'))!;
    const newId = (await (await regenerateOnPage(page)).getAttribute('trace-id'))!;
    expect(await page.locator('rag-feedback').count()).toBe(2);
    expect(newId).not.toBe(oldId);
    expect(await page.locator('.reply.superseded rag-feedback').getAttribute('trace-id')).toBe(oldId);
    await stored(oldId, (x) => x.events.some((e) => e.signalType === 'regenerate'));
    expect((await stored(newId, (x) => x.trace !== null)).trace!.turnIndex).toBe(0);
    const next = await askOnPage(page, 'How big is the widget?');
    expect((await stored((await next.getAttribute('trace-id'))!, (x) => x.trace !== null)).trace!.turnIndex).toBe(1);
  });

  it('says each answer in the status line for a screen reader, and "Searching…" while another question still is', async () => {
    const { page } = await openPage();
    // The first question's answer is slow to come; the second's comes first.
    const { asked, release } = await holdAsks(page, (n) => n === 0);
    await page.fill('#query', 'How do I deploy to Cloudflare?');
    await page.press('#query', 'Enter');
    await expect.poll(asked).toBe(1);
    const second = await askOnPage(page, 'What rate limits are there?');
    const status = page.locator('#status');
    expect(await status.textContent()).toBe(`Searching…Answer: ${await second.locator('.answer').textContent()}`);
    release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(2);
    const first = page.locator('.turn').first().locator('rag-feedback');
    expect(await status.textContent()).toBe(`Answer: ${await first.locator('.answer').textContent()}`);
  });

  it('says nothing of a question asked before a new chat was started, and stops saying "Searching…" for it', async () => {
    const { page } = await openPage();
    const { asked, release } = await holdAsks(page, () => true);
    await page.fill('#query', 'How do I deploy to Cloudflare?');
    await page.press('#query', 'Enter');
    await expect.poll(asked).toBe(1);
    expect(await page.locator('#status').textContent()).toBe('Searching…');
    // Spaces alone asked meanwhile: asked for a question, the page still says it is searching for the first.
    await page.fill('#query', '   ');
    await page.press('#query', 'Enter');
    expect(await page.locator('#status').textContent()).toBe('Searching… Type a question first.');
    await page.click('#new-chat');
    expect(await page.locator('#status').textContent()).toBe('');
    const answered = page.waitForResponse('**/api/ask');
    release();
    await answered;
    // The page has handled the answer once a task later.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    expect(await page.locator('#status').textContent()).toBe('');
    expect(await page.locator('rag-feedback').count()).toBe(0);
  });

  it('regenerates from the keyboard: a failure says why and keeps the answer and its button, and the new answer takes the focus', async () => {
    const { page } = await openPage();
    await askOnPage(page, 'What rate limits are there?');
    const first = page.locator('rag-feedback').first();
    // How often the page tells the widget the answer was regenerated.
    await first.evaluate((e) => {
      const el = e as RagFeedbackElement & { reported?: number };
      const report = el.reportRegenerate.bind(el);
      el.reported = 0;
      el.reportRegenerate = () => {
        el.reported! += 1;
        report();
      };
    });
    // A proxy in front of the demo answers once with its own error page.
    await page.route('**/api/ask', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }), { times: 1 });
    await page.locator('.regenerate').focus();
    await page.keyboard.press('Enter');
    const error = page.locator('.turn .error');
    await error.waitFor();
    expect(await error.textContent()).toBe('No answer: the demo answered HTTP 502');
    expect(await page.locator('#status').textContent()).toBe('No answer: the demo answered HTTP 502');
    const again = page.locator('.regenerate');
    expect(await again.textContent()).toBe('Regenerate');
    expect(await again.getAttribute('aria-disabled')).toBeNull();
    expect(await page.locator('.reply.superseded').count()).toBe(0);
    expect(await again.evaluate((b) => b === document.activeElement)).toBe(true);
    // The button asks again: the question box is left as it was.
    expect(await page.inputValue('#query')).toBe('');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(2);
    expect(await page.locator('.reply.superseded').count()).toBe(1);
    const focused = () => page.evaluate(() => document.activeElement === [...document.querySelectorAll('rag-feedback')].at(-1)?.querySelector('.answer'));
    await expect.poll(focused).toBe(true);
    // Asked twice, the answer was regenerated once.
    expect(await first.evaluate((e) => (e as RagFeedbackElement & { reported?: number }).reported)).toBe(1);
  });

  it("drops a failed regenerate's error once a later regenerate answers", async () => {
    const { page } = await openPage();
    await askOnPage(page, 'What rate limits are there?');
    await page.route('**/api/ask', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }), { times: 1 });
    await page.locator('.regenerate').click();
    await page.locator('.turn .error').waitFor();
    await regenerateOnPage(page);
    expect(await page.locator('.reply.superseded').count()).toBe(1);
    expect(await page.locator('.turn .error').count()).toBe(0);
  });

  it('puts a question that got no answer back in the box, to be asked again as is, unless another is being typed there', async () => {
    const { page } = await openPage();
    // The network fails once.
    await page.route('**/api/ask', (route) => route.abort('connectionrefused'), { times: 1 });
    await page.fill('#query', 'How do I deploy to Cloudflare?');
    await page.press('#query', 'Enter');
    await page.locator('.turn .error').waitFor();
    expect(await page.inputValue('#query')).toBe('How do I deploy to Cloudflare?');
    await page.press('#query', 'Enter');
    const el = page.locator('rag-feedback');
    await el.waitFor();
    expect(await el.getAttribute('query')).toBe('How do I deploy to Cloudflare?');
    expect(await page.inputValue('#query')).toBe('');
    // The demo fails the next question only once the reader has begun typing another.
    let fail = () => {};
    const typed = new Promise<void>((r) => {
      fail = r;
    });
    await page.route(
      '**/api/ask',
      async (route) => {
        await typed;
        await route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'Internal error' } } });
      },
      { times: 1 },
    );
    await page.fill('#query', 'What rate limits are there?');
    await page.press('#query', 'Enter');
    await page.fill('#query', 'How big is the widget?');
    fail();
    await expect.poll(() => page.locator('.turn .error').count()).toBe(2);
    expect(await page.locator('.turn .error').last().textContent()).toBe('No answer: Internal error');
    expect(await page.inputValue('#query')).toBe('How big is the widget?');
  });

  it('says an answer the demo no longer holds can no longer be regenerated, drops its button and gives the focus to the question box', async () => {
    const { page } = await openPage();
    await askOnPage(page, 'What rate limits are there?');
    // As after a restart of the demo: the answer the page names is none it gave.
    await page.route(
      '**/api/ask',
      (route) => route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), regenerateOf: '01890a5d-ac96-774b-bcce-b302099a8057' }) }),
      { times: 1 },
    );
    await page.locator('.regenerate').focus();
    await page.keyboard.press('Enter');
    const error = page.locator('.turn .error');
    await error.waitFor();
    const said = 'This answer can no longer be regenerated: ask the question again.';
    expect(await error.textContent()).toBe(said);
    expect(await page.locator('#status').textContent()).toBe(said);
    expect(await page.locator('.regenerate').count()).toBe(0);
    expect(await page.locator('rag-feedback').count()).toBe(1);
    expect(await page.locator('.reply.superseded').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('query');
    // The question is in the box, to be asked again with Enter.
    expect(await page.inputValue('#query')).toBe('What rate limits are there?');
  });

  it("offers the corpus's example questions on an empty chat: one click asks it, and a new chat offers them again", async () => {
    const { page } = await openPage();
    const offered = page.locator('#examples button');
    expect(await offered.allTextContents()).toEqual(DOC_EXAMPLES);
    await offered.nth(1).click();
    await page.locator('rag-feedback').waitFor();
    expect(await page.locator('.question').textContent()).toBe(DOC_EXAMPLES[1]);
    expect(await page.locator('#examples').isHidden()).toBe(true);
    await page.click('#new-chat');
    expect(await page.locator('#examples').isVisible()).toBe(true);
    expect(await page.locator('rag-feedback').count()).toBe(0);
  });

  it('gives the focus to the question box when an example is asked from the keyboard, as the examples go', async () => {
    const { page } = await openPage();
    await page.locator('#examples button').first().focus();
    await page.keyboard.press('Enter');
    await page.locator('rag-feedback').waitFor();
    expect(await page.locator('#examples').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('query');
    // The next question is typed straight away.
    await page.keyboard.type('What rate limits are there?');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(2);
  });

  it('shows what the user typed as text, never as markup', async () => {
    const { page, errors } = await openPage();
    const typed = '<img src=x onerror="window.pwned=1"> widget?';
    await askOnPage(page, typed);
    expect(await page.locator('.question').last().textContent()).toBe(typed);
    expect(await page.locator('#chat img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it("keeps a language model's line breaks: its paragraphs and list items are not run together", async () => {
    const { page } = await openPage();
    // As the demo answers with DEMO_LLM_* set: a model writing its points on lines of their own.
    await page.route(
      '**/api/ask',
      (route) =>
        route.fulfill({
          json: {
            traceId: '01890a5d-ac96-774b-bcce-b302099a8057',
            answer: 'Two limits apply [1]:\n\n- 60,000 events a minute per key\n- 600 a minute per session',
            citations: [{ n: 1, chunkId: 'README.md#configuration', sourceDocId: 'README.md', title: 'Configuration', snippet: 'Limits' }],
            model: 'test-llm',
            answered: true,
          },
        }),
      { times: 1 },
    );
    const el = await askOnPage(page, 'What rate limits are there?');
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered, where white space the page's styles collapse is one space.
    expect(await el.locator('.answer').innerText()).toBe('Two limits apply [1]:\n\n- 60,000 events a minute per key\n- 600 a minute per session');
  });

  it('lets an input method finish a word with Enter without asking, and sets each question, answer and the question box in the direction of its own text', async () => {
    const { page } = await openPage();
    await page.fill('#query', '退款');
    // Enter picking a candidate of a Chinese or Japanese input method: keydown while composing.
    const taken = await page
      .locator('#query')
      .evaluate((q) => !q.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true })));
    expect(taken).toBe(false);
    // Safari's: isComposing already false, keyCode 229 ("being composed").
    const safari = await page
      .locator('#query')
      .evaluate((q) => !q.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, bubbles: true, cancelable: true })));
    expect(safari).toBe(false);
    expect(await page.locator('.turn').count()).toBe(0);
    expect(await page.inputValue('#query')).toBe('退款');
    const el = await askOnPage(page, 'ما هي حدود المعدل؟');
    const direction = (selector: string) =>
      page
        .locator(selector)
        .last()
        .evaluate((e) => getComputedStyle(e).direction);
    expect(await direction('.question')).toBe('rtl');
    expect(await direction('#query')).toBe('ltr');
    await page.fill('#query', 'שלום');
    expect(await direction('#query')).toBe('rtl');
    expect(await el.locator('.answer').evaluate((e) => getComputedStyle(e).direction)).toBe('ltr');
  });

  it('wraps a question without spaces (a long URL) instead of widening the page', async () => {
    const { page } = await openPage();
    await askOnPage(page, `https://example.com/${'segment/'.repeat(120)}deploy`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  it("wraps a collection's example question without spaces (a long URL) instead of widening the page", async () => {
    const page = await (await browser().newContext()).newPage();
    page.setDefaultNavigationTimeout(30_000);
    const url = `https://example.com/${'segment'.repeat(60)}`;
    // A collection whose training questions hold such a URL: its settings as the backend gives them, with that example.
    await page.route('**/api/config', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as { corpus: { examples: string[] } };
      await route.fulfill({ response, json: { ...config, corpus: { ...config.corpus, examples: [url] } } });
    });
    await page.goto(demo.url);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#examples button').textContent()).toBe(url);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  it('says when its settings did not load, and the next question loads them and is answered rather than left "Searching…"', async () => {
    const page = await (await browser().newContext()).newPage();
    page.setDefaultNavigationTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The demo answers its settings once with an error, as while it restarts.
    await page.route('**/api/config', (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'unavailable' }), { times: 1 });
    await page.goto(demo.url);
    const status = page.locator('#status');
    await expect.poll(() => status.textContent()).toBe("The page did not load: the demo's settings did not load (HTTP 503). Ask a question to try again.");
    const el = await askOnPage(page, 'How do I deploy to Cloudflare?');
    expect(await el.getAttribute('endpoint')).toBe(collector.url);
    expect(await status.textContent()).toBe(`Answer: ${await el.locator('.answer').textContent()}`);
    expect(await page.locator('body').getAttribute('data-ready')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('says no feedback is sent without a collector for as long as the page is open, not only until the first question', async () => {
    // The demo alone, started without a collector.
    const alone = await startDemo({ port: 0, log: () => {} });
    try {
      const { page } = await openPage(alone.url);
      const notice = page.getByText('No collector configured: feedback is not sent.', { exact: true });
      await notice.waitFor();
      const el = await askOnPage(page, 'How do I deploy to Cloudflare?');
      expect(await page.locator('#status').textContent()).toBe(`Answer: ${await el.locator('.answer').textContent()}`);
      expect(await notice.isVisible()).toBe(true);
      expect(await axe(page)).toEqual([]);
    } finally {
      await alone.close();
    }
  });

  it('says under the chat while feedback is not reaching the collector, naming it and what to check, and takes it away once it is', async () => {
    // A collector that is down as the page asks, and comes back.
    const collectorDown = await standInCollector();
    await collectorDown.down();
    const standing = await demoSendingTo(collectorDown.url);
    try {
      const { page } = await openPage(standing.url);
      const notice = page.locator('#notice');
      // Nothing was sent yet: nothing is known to be wrong.
      expect(await notice.isHidden()).toBe(true);
      await askOnPage(page, 'How do I deploy to Cloudflare?');
      await expect
        .poll(() => notice.textContent())
        .toBe(
          `Feedback is not reaching the collector at ${collectorDown.url}: it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL).`,
        );
      expect(await notice.isVisible()).toBe(true);
      expect(await axe(page)).toEqual([]);
      await collectorDown.up();
      // The demo sees it back, and the page hears of it at its next look; the trace is taken at a retry.
      await expect.poll(() => notice.isHidden(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => collectorDown.taken, { timeout: 15_000 }).toBe(1);
    } finally {
      await standing.close();
      await collectorDown.down();
    }
  });

  it("says under the chat while the collector refuses the widget's events from the page's origin, which the page cannot see, and takes it away once it allows it", async () => {
    // A collector that takes the demo's traces but not the widget's events from this page, as the dev project on another port.
    const refusing = await standInCollector();
    refusing.allowedOrigins = [];
    const standing = await demoSendingTo(refusing.url);
    try {
      const { page } = await openPage(standing.url);
      const notice = page.locator('#notice');
      const { origin } = new URL(standing.url);
      await expect
        .poll(() => notice.textContent(), { timeout: 15_000 })
        .toBe(
          `Feedback is not reaching the collector at ${refusing.url}: the dev project does not allow ${origin}, so the widget's events from it are refused (\`npm run keys -- origins dev --add ${origin}\` allows it within a minute).`,
        );
      expect(await notice.isVisible()).toBe(true);
      refusing.allowedOrigins.push(origin);
      await expect.poll(() => notice.isHidden(), { timeout: 15_000 }).toBe(true);
    } finally {
      await standing.close();
      await refusing.down();
    }
  });

  it('shows a question and "Searching…" above the question box as it is asked, on a page scrolled back to an earlier answer, not only once it is answered', async () => {
    const { page } = await openPage();
    await page.setViewportSize({ width: 800, height: 500 });
    await askOnPage(page, 'How do I deploy to Cloudflare?');
    await askOnPage(page, 'How are events delivered when the page is closed?');
    // The reader goes back to the first answer, and asks a follow-up of a slow backend.
    await page.evaluate(() => window.scrollTo(0, 0));
    const { asked, release } = await holdAsks(page, () => true);
    await page.fill('#query', 'What rate limits are there?');
    await page.press('#query', 'Enter');
    await expect.poll(asked).toBe(1);
    const box = (await page.locator('#ask').boundingBox())!;
    for (const shown of [page.locator('.question').last(), page.locator('#status')]) {
      await expect
        .poll(async () => {
          const at = (await shown.boundingBox())!;
          return at.y >= 0 && at.y + at.height <= box.y;
        })
        .toBe(true);
    }
    expect(await page.locator('#status').textContent()).toBe('Searching…');
    release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(3);
  });

  it('scrolls to an answer only while the reader waits where it comes: not back to an earlier question, nor away from what they scrolled to', async () => {
    const { page } = await openPage();
    await page.setViewportSize({ width: 800, height: 500 });
    // Wholly on screen, above the fixed question box.
    const shown = async (locator: Locator) => {
      const at = (await locator.boundingBox())!;
      return at.y >= 0 && at.y + at.height <= (await page.locator('#ask').boundingBox())!.y;
    };
    // The answer is handled, and the widget rendered, once a task later.
    const settled = () => page.evaluate(() => new Promise((r) => setTimeout(r, 300)));

    // The first question's answer is slow; the reader asks two more meanwhile and reads the last answer.
    const slow = await holdAsks(page, (n) => n === 0);
    await page.fill('#query', 'How do I deploy to Cloudflare?');
    await page.press('#query', 'Enter');
    await expect.poll(slow.asked).toBe(1);
    await askOnPage(page, 'How are events delivered when the page is closed?');
    const last = (await askOnPage(page, 'What does the nightly job do?')).locator('.answer');
    await settled();
    const reading = (await last.boundingBox())!.y;
    slow.release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(3);
    await settled();
    // Scroll anchoring keeps it where it was, to a fraction of a pixel.
    expect((await last.boundingBox())!.y).toBeCloseTo(reading, 0);
    await page.unroute('**/api/ask');

    // The reader waits under the latest question: its answer is brought into view.
    const waited = await holdAsks(page, () => true);
    await page.fill('#query', 'What rate limits are there?');
    await page.press('#query', 'Enter');
    await expect.poll(waited.asked).toBe(1);
    waited.release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(4);
    await settled();
    expect(await shown(page.locator('.reply').last().locator('.answer'))).toBe(true);
    await page.unroute('**/api/ask');

    // The reader scrolls back to the first answer while the next is made: the page stays there.
    const away = await holdAsks(page, () => true);
    await page.fill('#query', 'How big is the widget?');
    await page.press('#query', 'Enter');
    await expect.poll(away.asked).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    away.release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(5);
    await settled();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('brings the answer of a Regenerate clicked with the mouse into view, the focus gone on to the question box', async () => {
    const { page } = await openPage();
    await page.setViewportSize({ width: 800, height: 500 });
    await askOnPage(page, 'How do I deploy to Cloudflare?');
    await askOnPage(page, 'What rate limits are there?');
    const { asked, release } = await holdAsks(page, () => true);
    await page.locator('.regenerate').last().click();
    await expect.poll(asked).toBe(1);
    // The reader goes on to the question box while the new answer is made.
    await page.click('#query');
    release();
    await expect.poll(() => page.locator('rag-feedback').count()).toBe(3);
    const answer = page.locator('.reply').last().locator('.answer');
    await expect
      .poll(async () => {
        const at = (await answer.boundingBox())!;
        return at.y >= 0 && at.y + at.height <= (await page.locator('#ask').boundingBox())!.y;
      })
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('query');
  });

  it("keeps the widget's correction form above the question box when it opens at the bottom of the page, however tall the box", async () => {
    const { page } = await openPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await askOnPage(page, 'How do I deploy to Cloudflare?');
    const el = await askOnPage(page, 'How are events delivered when the page is closed?');
    // A reader made the question box taller: the page follows its height.
    await page.locator('#query').evaluate((q) => {
      q.style.height = '14rem';
    });
    await el.locator('[part~="vote-down"]').click();
    await el.getByRole('button', { name: 'Suggest a correction' }).click();
    const field = el.locator('#rf-correction');
    await expect.poll(() => field.evaluate((f) => f === (f.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    const box = await page.locator('#ask').boundingBox();
    const focused = await field.boundingBox();
    expect(box!.height).toBeGreaterThan(14 * 16);
    expect(focused!.y + focused!.height).toBeLessThanOrEqual(box!.y);
  });

  it('meets WCAG 2.1 AA as axe checks it, empty, with an answer, its citations and its widget, and with an earlier answer faded', async () => {
    const { page } = await openPage();
    // Empty, the page has its example questions and no widget yet.
    expect(await axe(page, { shadowRoots: false })).toEqual([]);
    await askOnPage(page, 'How do I deploy to Cloudflare?');
    expect(await axe(page)).toEqual([]);
    await regenerateOnPage(page);
    await page.locator('.reply.superseded').waitFor();
    expect(await axe(page)).toEqual([]);
  });

  it('answers a question nothing matches without a ranking or a regenerate, and asks for a question when given only spaces', async () => {
    const { page } = await openPage();
    const el = await askOnPage(page, 'zqxj vwkp');
    expect(await el.locator('.answer').textContent()).toContain('None of the retrieved passages answers this');
    const reply = page.locator('.reply').last();
    expect(await reply.locator('.ranking, .regenerate').count()).toBe(0);

    await page.fill('#query', '   ');
    await page.press('#query', 'Enter');
    await expect.poll(() => page.locator('#status').textContent()).toBe('Type a question first.');
    expect(await page.locator('.turn').count()).toBe(1);
  });
});
