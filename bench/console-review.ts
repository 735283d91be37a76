/**
 * The review queue's promise: an answer shows the next item at once. Headless Chromium against a
 * collector under wrangler dev with a seeded queue; for each of 100 answers by key (1, 2, 3 in
 * turn), the time from the key's event to the first frame painted after the next item replaced
 * the answered one.
 */
import type { Page } from 'playwright-core';
import { buildConsole } from '../scripts/build-console.ts';
import { NO_RATE_LIMITS, startLocalCollector } from '../scripts/local-collector.ts';
import { launch } from '../tests/e2e/chromium.ts';
import { seedReviewQueue } from './console-queue.ts';
import { type Row, row } from './stats.ts';

const ANSWERS = 100;
const KEYS = ['1', '2', '3'] as const;

/**
 * Runs in the page (as source: the Node loader's helpers do not exist there): arms a measurement of
 * the next key press, kept as window.__answered.
 */
const ARM = `(() => {
  const find = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.tagName === 'RF-REVIEW-PAGE') return el;
      const inner = el.shadowRoot && find(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const root = find(document).shadowRoot;
  const shown = () => root.querySelector('article.item')?.getAttribute('data-item') ?? null;
  const from = shown();
  window.__answered = new Promise((resolve, reject) => {
    let pressedAt;
    addEventListener('keydown', (e) => (pressedAt = e.timeStamp), { capture: true, once: true });
    const timer = setTimeout(() => reject(new Error('no next item after ' + from)), 10000);
    const observer = new MutationObserver(() => {
      const now = shown();
      if (pressedAt === undefined || now === null || now === from) return;
      observer.disconnect();
      clearTimeout(timer);
      // The frame that shows it: rAF runs before that frame's paint, a task queued there after it.
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - pressedAt)));
    });
    observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  });
})()`;

async function answerAll(page: Page): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < ANSWERS; i++) {
    await page.evaluate(ARM);
    await page.keyboard.press(KEYS[i % KEYS.length]!);
    samples.push(await page.evaluate('window.__answered'));
  }
  return samples;
}

export async function consoleReviewBench(): Promise<Row[]> {
  await buildConsole();
  const collector = await startLocalCollector({ vars: NO_RATE_LIMITS });
  try {
    const queued = await seedReviewQueue(collector, ANSWERS + 20);
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
      await context.addInitScript((key) => sessionStorage.setItem('rf-console-admin-key', key), collector.keys.admin);
      const page = await context.newPage();
      await page.goto(`${collector.url}/admin/review`);
      await page.locator('rf-review-page article.item .traces a').first().waitFor({ timeout: 15_000 });
      const samples = await answerAll(page);
      return [row('console', `review queue: answer key to next item painted (${ANSWERS} answers, ${queued} queued)`, 'ms', samples, '<= 50')];
    } finally {
      await browser.close();
    }
  } finally {
    await collector.stop();
  }
}
