/** A real collector, a static host site and Chromium, for the widget benchmarks. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
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
  /** The host page URL with the widget configured for this collector. */
  hostUrl(options?: Record<string, unknown>): string;
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
    hostUrl: (options = {}) =>
      `${site.url}/tests/e2e/pages/host.html?${new URLSearchParams({ build: 'esm', endpoint: collector.url, key: project.keys.write, options: JSON.stringify(options) })}`,
    async close() {
      await browser.close();
      await site.close();
      await collector.stop();
    },
  };
}
