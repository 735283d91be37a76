/** The review queue on an item whose question joined the team's curated eval suite: an answer there trains nothing. */
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewQueue } from '../api/types.ts';
import { curate, openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

describe('review queue, an item on a curated question', () => {
  it('says its question is curated, and counts its answer as the collector does: confirmed, but no training example', async () => {
    const f = fixture();
    const before = await f.admin<ReviewQueue>('/v1/admin/review?limit=100');
    const item = before.items.find((i) => !i.heldOut)!;
    // The team puts the question into its suite after the night mined it: the item still waits, marked.
    await curate(f, 'e2e-curated', item);
    const { page, context, problems } = await openConsole(browser(), f, `/admin/review?item=${encodeURIComponent(item.id)}`);
    try {
      const shown = page.locator('rf-review-page article.item');
      await expect.poll(() => shown.getAttribute('data-item')).toBe(item.id);
      expect(await shown.locator('[data-field="curated"]').textContent()).toBe('In the curated eval suite: this answer does not train.');
      const progress = page.locator('rf-review-page .progress');
      const examples = `Training examples: ${before.training.examples} of ${before.training.minimum}`;
      expect(await progress.textContent()).toContain(examples);
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(encodeURIComponent(item.id)) && r.status() === 200);
      await page.keyboard.press('1');
      await saved;
      await expect.poll(() => shown.getAttribute('data-item')).not.toBe(item.id);
      // The page's count after the answer is the collector's.
      const after = await f.admin<ReviewQueue>('/v1/admin/review?limit=1');
      expect(after.training).toMatchObject({ confirmed: before.training.confirmed + 1, examples: before.training.examples });
      expect(await progress.textContent()).toContain(examples);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
