import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Logged by `settled()`; never kept among the page's messages. */
const MARKER = 'rf-test: output up to here';

export interface PageOutput {
  /** Uncaught errors and unhandled rejections, by message. */
  errors: string[];
  /** Console messages as "type: text". */
  console: string[];
  /**
   * Logs a marker on the page's console and waits until it arrives: the page's errors and
   * messages come in order, so whatever it reported before the marker is in the copies returned,
   * and a check that there was none can fail.
   */
  settled(): Promise<{ errors: string[]; console: string[] }>;
}

/** Collects what `page` reports from now on. */
export function watchOutput(page: Page): PageOutput {
  const errors: string[] = [];
  const messages: string[] = [];
  let markers = 0;
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => (m.text() === MARKER ? markers++ : messages.push(`${m.type()}: ${m.text()}`)));
  return {
    errors,
    console: messages,
    async settled() {
      const expected = markers + 1;
      await page.evaluate((marker) => console.debug(marker), MARKER);
      await expect.poll(() => markers).toBe(expected);
      return { errors: [...errors], console: [...messages] };
    },
  };
}
