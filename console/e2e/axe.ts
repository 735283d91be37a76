import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The part of axe-core's result read here. */
interface AxeNode {
  target: (string | string[])[];
}
interface AxeResults {
  violations: { id: string; nodes: AxeNode[] }[];
  passes: { id: string; nodes: AxeNode[] }[];
}
type AxeWindow = Window & { axe: { run(context: Document, options: unknown): Promise<AxeResults> } };

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's WCAG 2.1 A and AA rules over the page, shadow roots included, and its best-practice
 * rule that a skip link reaches its target: the violations found. `shadowRoots: false` for a page
 * with none yet (else the check that axe looked inside them fails).
 */
export async function axe(page: Page, { shadowRoots = true } = {}): Promise<string[]> {
  await page.evaluate(axeSource);
  const { violations, contrastChecked } = await page.evaluate(async () => {
    const result = await (window as unknown as AxeWindow).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'skip-link': { enabled: true } },
    });
    return {
      violations: result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      // Targets inside a shadow root are arrays of selectors: proof axe looked inside the console's elements.
      contrastChecked: result.passes.find((r) => r.id === 'color-contrast')?.nodes.filter((n) => Array.isArray(n.target[0])).length ?? 0,
    };
  });
  if (shadowRoots) expect(contrastChecked).toBeGreaterThan(0);
  return violations;
}
