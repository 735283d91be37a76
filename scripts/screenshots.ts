/**
 * `npm run screenshots [demo] [console]`: the README's pictures, taken in headless Chromium from
 * the real thing, written to docs/screenshots/:
 *   demo     a throwaway collector under wrangler dev, the demo beside it, a question asked and
 *            answered, and the feedback widget's popover after a thumbs-down;
 *   console  the admin console on a collector filled with the seed's traffic, a nightly run, some
 *            review answers, two trained models and two dead letters: every page the README's
 *            tour shows.
 * Both by default.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seedReviewQueue } from '../bench/console-queue.ts';
import { keepDeadLetters } from '../console/e2e/dead-letters.ts';
import { trainedModels } from '../console/e2e/trained-models.ts';
import { startDemo } from '../demo/server/index.ts';
import { launch } from '../tests/e2e/chromium.ts';
import { buildConsole } from './build-console.ts';
import { failInOneLine, parseCommand } from './cli.ts';
import { holdPort } from './free-port.ts';
import { type LocalCollector, NO_RATE_LIMITS, startLocalCollector } from './local-collector.ts';
import { ROOT } from './wrangler.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
const VIEWPORT = { width: 1100, height: 760 };

async function demoScreenshots(browser: Browser) {
  // The demo's address is an allowed origin of the collector, which starts first: its port is held till then.
  const demoPort = await holdPort();
  const collector = await startLocalCollector({ origins: [`http://127.0.0.1:${demoPort.port}`], vars: NO_RATE_LIMITS }).finally(demoPort.release);
  const demo = await startDemo({
    port: demoPort.port,
    collectorUrl: collector.url,
    serverKey: collector.keys.server,
    writeKey: collector.keys.write,
    log: () => {},
  });
  try {
    const page = await (await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 })).newPage();
    await page.goto(demo.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#query', 'How does the review queue decide what to show first?');
    await page.press('#query', 'Enter');
    const widget = page.locator('rag-feedback').last();
    await widget.waitFor();
    await page.screenshot({ path: join(OUT, 'demo-answer.png') });
    await widget.locator('[part~="vote-down"]').click();
    await widget.locator('[part="panel"]').waitFor();
    await page.screenshot({ path: join(OUT, 'demo-feedback.png') });
  } finally {
    await demo.close();
    await collector.stop();
  }
}

/** Calls the API with the project's admin key: GET, or `method` with a JSON body. */
async function admin<T>(collector: LocalCollector, path: string, json?: unknown, method = 'POST'): Promise<T> {
  const res = await fetch(`${collector.url}${path}`, {
    method: json === undefined ? 'GET' : method,
    headers: { authorization: `Bearer ${collector.keys.admin}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A contextual prompt for the prompt settings page to show and preview. */
const PROMPT = { id: 'stuck', trigger: 'rephrase', text: { en: 'Having trouble finding an answer?' } };

/** Owner rules, so flagged documents and corrections show whose they are. */
const OWNERS = [
  { pattern: 'refunds*', owner: 'billing-docs' },
  { pattern: '*', owner: 'help-centre' },
];

/** Each console page the tour shows: its file, its address, what shows it is ready, and what to do before the picture. */
const PAGES = (traceId: string): [string, string, string, ((page: Page) => Promise<void>)?][] => [
  ['console-review', '/admin/review', 'rf-review-page article.item .traces a'],
  ['console-trace', `/admin/traces/${encodeURIComponent(traceId)}`, 'rf-trace-page table.signals'],
  ['console-health', '/admin/health?days=30', 'rf-health-page rf-line-chart canvas'],
  ['console-worst', '/admin/traces?days=30', 'rf-worst-page table.worst tbody tr'],
  ['console-documents', '/admin/documents', 'rf-documents-page table'],
  ['console-chunks', '/admin/chunks?minShown=5', 'rf-chunks-page table.chunks tbody tr'],
  ['console-corrections', '/admin/corrections', 'rf-corrections-page article'],
  [
    'console-prompts',
    '/admin/prompts',
    'rf-prompts-page rf-widget-preview rag-feedback',
    async (page) => {
      await page.getByRole('button', { name: `Show prompt ${PROMPT.id}` }).click();
      // The prompt's own paragraph: its text is read out through the widget's live region too.
      await page.locator(`rf-widget-preview rag-feedback #prompt-${PROMPT.id}`).getByText(PROMPT.text.en).waitFor();
    },
  ],
  ['console-models', '/admin/models', 'rf-models-page article.model table'],
  ['console-dead-letters', '/admin/dead-letters', 'rf-dead-letters-page table.dead-letters tbody tr'],
  ['console-settings', '/admin/settings', 'rf-settings-page form.settings'],
];

async function consoleScreenshots(browser: Browser) {
  await buildConsole();
  const collector = await startLocalCollector({ vars: NO_RATE_LIMITS });
  try {
    await seedReviewQueue(collector, 0);
    // A few answers, so the queue shows progress and health its review throughput.
    const { items } = await admin<{ items: { id: string }[] }>(collector, '/v1/admin/review?limit=12');
    for (const [i, item] of items.entries()) {
      await admin(collector, `/v1/admin/review/${encodeURIComponent(item.id)}`, { verdict: i % 4 === 3 ? 'unclear' : i % 2 ? 'not_relevant' : 'relevant' });
    }
    await admin(collector, '/v1/config', { prompts: [PROMPT] }, 'PUT');
    await admin(collector, '/v1/admin/owners', { owners: OWNERS }, 'PUT');
    const { first, second } = trainedModels();
    await admin(collector, '/v1/admin/models', first);
    await admin(collector, '/v1/admin/models', second);
    // The trace behind the first item still waiting: one with a signal the diagnosis can read.
    const waiting = await admin<{ items: { traceIds: string[] }[] }>(collector, '/v1/admin/review?limit=1');
    keepDeadLetters(collector.persistTo, {
      traceId: waiting.items[0]!.traceIds[0]!,
      tag: 'msg-7f3a',
      correction: 'Opened items can be returned within 30 days, not 14.',
    });
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, colorScheme: 'light', locale: 'en-US' });
    await context.addInitScript((key) => sessionStorage.setItem('rf-console-admin-key', key), collector.keys.admin);
    const page: Page = await context.newPage();
    for (const [name, path, ready, before] of PAGES(waiting.items[0]!.traceIds[0]!)) {
      await page.goto(`${collector.url}${path}`);
      await page.locator(ready).first().waitFor({ timeout: 15_000 });
      await before?.(page);
      // Charts draw and fonts settle on the next frames.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: join(OUT, `${name}.png`) });
    }
  } finally {
    await collector.stop();
  }
}

failInOneLine();
const runs = { demo: demoScreenshots, console: consoleScreenshots };
const { positionals: wanted } = parseCommand({}, 'npm run screenshots [-- demo | console] (both by default)', { positionals: Object.keys(runs).length });
// A set's name misspelt would take no picture and still say they were written.
const unknown = wanted.find((name) => !Object.hasOwn(runs, name));
if (unknown) throw new Error(`no screenshot set ${JSON.stringify(unknown)}: give ${Object.keys(runs).join(' or ')}, or nothing for all`);
mkdirSync(OUT, { recursive: true });
const browser = await launch();
try {
  for (const [name, run] of Object.entries(runs)) if (!wanted.length || wanted.includes(name)) await run(browser);
  console.log(`screenshots written to ${OUT}`);
} finally {
  await browser.close();
}
