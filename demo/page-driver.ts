/**
 * How a script drives the demo page as a user would, shared by the page's end-to-end test and the
 * browser sample of `npm run loop:eval`.
 */
import type { Locator, Page } from 'playwright-core';

/**
 * Asks a question on the demo page as a user would (typed, then Enter) and waits for its answer:
 * the new `<rag-feedback>` it comes in.
 */
export async function askOnPage(page: Page, query: string): Promise<Locator> {
  const before = await page.locator('rag-feedback').count();
  await page.fill('#query', query);
  await page.press('#query', 'Enter');
  await page.waitForFunction((n) => document.querySelectorAll('rag-feedback').length > n, before);
  return page.locator('rag-feedback').last();
}

/** Presses the last answer's regenerate button and waits for the new answer's `<rag-feedback>`. */
export async function regenerateOnPage(page: Page): Promise<Locator> {
  const before = await page.locator('rag-feedback').count();
  await page.locator('.regenerate').last().click();
  await page.waitForFunction((n) => document.querySelectorAll('rag-feedback').length > n, before);
  return page.locator('rag-feedback').last();
}
