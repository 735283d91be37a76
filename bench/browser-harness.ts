/** A real collector, a static host site and Chromium, for the widget benchmarks. */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildWidget } from '../scripts/build-widget.ts';
import { type LocalCollector, NO_RATE_LIMITS, startLocalCollector } from '../scripts/local-collector.ts';
import { launch } from '../tests/e2e/chromium.ts';
import { gotoHostPage } from '../tests/e2e/host-page.ts';
import { type StaticServer, startStaticServer } from '../tests/static-server.ts';

export interface Harness {
  browser: Browser;
  collector: LocalCollector;
  site: StaticServer;
  /** A fresh browser context with the test host page loaded, the widget configured with `options`. */
  openHost(options?: Record<string, unknown>): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  await buildWidget({ types: false });
  const site = await startStaticServer();
  let collector: LocalCollector | undefined;
  try {
    collector = await startLocalCollector({ origins: [site.url], vars: NO_RATE_LIMITS });
    const browser = await launch();
    const { url: endpoint, keys } = collector;
    return {
      browser,
      collector,
      site,
      async openHost(options = {}) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await gotoHostPage(page, { site: site.url, endpoint, writeKey: keys.write, options });
        return { context, page };
      },
      async close() {
        await browser.close();
        await site.close();
        await collector!.stop();
      },
    };
  } catch (err) {
    await collector?.stop();
    await site.close();
    throw err;
  }
}
