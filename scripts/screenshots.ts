/**
 * `npm run screenshots`: the README's pictures, taken in headless Chromium from the real thing: a
 * throwaway collector under wrangler dev, the demo beside it, a question asked and answered, and
 * the feedback widget's popover after a thumbs-down. Written to docs/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startDemo } from '../demo/server/index.ts';
import { launch } from '../tests/e2e/chromium.ts';
import { freePort } from './free-port.ts';
import { NO_RATE_LIMITS, startLocalCollector } from './local-collector.ts';
import { ROOT } from './wrangler.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
mkdirSync(OUT, { recursive: true });

const demoPort = await freePort();
const collector = await startLocalCollector({ origins: [`http://127.0.0.1:${demoPort}`], vars: NO_RATE_LIMITS });
const demo = await startDemo({ port: demoPort, collectorUrl: collector.url, serverKey: collector.keys.server, writeKey: collector.keys.write, log: () => {} });
const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 })).newPage();
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
  console.log(`screenshots written to ${OUT}`);
} finally {
  await browser.close();
  await demo.close();
  await collector.stop();
}
