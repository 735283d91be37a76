/** A real collector, a static host site and Chromium, for the widget benchmarks. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { provisionProject } from '../collector/auth/provision.ts';
import { buildWidget } from '../scripts/build-widget.ts';
import { migrate, query, startDev, type DevServer } from '../scripts/wrangler.ts';
import { launch } from '../tests/e2e/chromium.ts';
import { startStaticServer, type StaticServer } from '../tests/static-server.ts';

export interface Harness {
  browser: Browser;
  collector: DevServer;
  site: StaticServer;
  keys: { write: string; server: string; admin: string };
  /** A fresh browser context with the test host page loaded, the widget configured with `options`. */
  openHost(options?: Record<string, unknown>): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

const UNLIMITED = { RATE_LIMIT_KEY_PER_MIN: '100000000', RATE_LIMIT_SESSION_PER_MIN: '100000000', RATE_LIMIT_IP_PER_MIN: '100000000' };

export async function startHarness(ports = { collector: 8798, site: 8799 }): Promise<Harness> {
  await buildWidget({ types: false });
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-bench-widget-'));
  migrate({ persistTo }, { quiet: true });
  const siteUrl = `http://127.0.0.1:${ports.site}`;
  const project = await provisionProject({ id: 'bench', name: 'bench', origins: [siteUrl] });
  query(project.statements.join('\n'), { persistTo });
  const collector = await startDev({ port: ports.collector, persistTo, vars: UNLIMITED, logLevel: 'warn' });
  const site = await startStaticServer(ports.site);
  const browser = await launch();
  return {
    browser,
    collector,
    site,
    keys: project.keys,
    async openHost(options = {}) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const params = new URLSearchParams({ build: 'esm', endpoint: collector.url, key: project.keys.write, options: JSON.stringify(options) });
      await page.goto(`${site.url}/tests/e2e/pages/host.html?${params}`);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      return { context, page };
    },
    async close() {
      await browser.close();
      await site.close();
      await collector.stop();
    },
  };
}
