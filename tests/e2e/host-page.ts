import type { Page } from 'playwright-core';

/** Where the test host page (pages/host.html) loads from and how its widget is set up. */
export interface HostPage {
  /** The static site that serves the page. */
  site: string;
  /** The collector, and the project's write key. */
  endpoint: string;
  writeKey: string;
  /** The ES module build or the single-file script. */
  build?: 'esm' | 'iife';
  /** Options for RagFeedback.configure. */
  options?: Record<string, unknown>;
}

/** Loads the host page in `page` and waits until its chat UI can add answers. */
export async function gotoHostPage(page: Page, { site, endpoint, writeKey, build = 'esm', options = {} }: HostPage): Promise<void> {
  const params = new URLSearchParams({ build, endpoint, key: writeKey, options: JSON.stringify(options) });
  await page.goto(`${site}/tests/e2e/pages/host.html?${params}`);
  await hostReady(page);
}

/** Waits until the host page (loaded, or reloaded) can add answers. */
export const hostReady = (page: Page) => page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
