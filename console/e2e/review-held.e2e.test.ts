/** The review queue's count of held items, by each reason the collector holds one for. */
import { describe, expect, it } from 'vitest';
import { query } from '../../scripts/local-d1-sql.ts';
import { useBrowser } from '../../tests/e2e/helpers.ts';
import type { ReviewQueue } from '../api/types.ts';
import { curate, openConsole, useSeededCollector } from './fixture.ts';

const browser = useBrowser();
const fixture = useSeededCollector();

/** The line as the console words it in English. */
const counts = ({ pending, held, heldFor }: ReviewQueue['budget']) => {
  const reasons = [
    heldFor.threshold && `${heldFor.threshold} below the mining threshold`,
    heldFor.budget && `${heldFor.budget} past the week’s budget`,
    heldFor.curated && `${heldFor.curated} on curated questions`,
  ].filter(Boolean);
  return `${pending} waiting · ${held} held` + (reasons.length ? `: ${reasons.join(', ')}` : '');
};

describe('the review queue’s held items, by reason', () => {
  it('are counted below the mining threshold, past the week’s budget and on a curated question, as the collector holds them, and an answer takes one off its reason', async () => {
    const f = fixture();
    const sql = (text: string) => query(text, { persistTo: f.collector.persistTo });
    const { items } = await f.admin<ReviewQueue>('/v1/admin/review?limit=100');
    // The top item stays above the threshold set below (past the budget), the last one below it, and one between them joins the curated suite.
    const top = items[0]!;
    const low = items.at(-1)!;
    const curated = items.slice(1, -1).find((i) => !i.heldOut)!;
    expect(top.expectedValue).toBeGreaterThan(low.expectedValue);
    await curate(f, 'e2e-held', curated);
    // As a night's queue stage leaves them: a threshold between the two, and the three held.
    const threshold = (top.expectedValue + low.expectedValue) / 2;
    await sql(`insert into mining_thresholds (project_id, at, from_value, to_value, reason) values ('local', ${Date.now()}, 0, ${threshold}, 'e2e')`);
    const ids = [top, low, curated].map((i) => `'${i.id.replace(/'/g, "''")}'`).join(',');
    await sql(`update review_items set status = 'held' where project_id = 'local' and item_id in (${ids})`);

    const before = await f.admin<ReviewQueue>('/v1/admin/review?status=held');
    expect(before.budget.heldFor).toEqual({ threshold: 1, budget: 1, curated: 1 });
    expect(Object.fromEntries(before.items.map((i) => [i.id, i.heldFor]))).toEqual({ [top.id]: 'budget', [low.id]: 'threshold', [curated.id]: 'curated' });

    const { page, context, problems } = await openConsole(browser(), f, `/admin/review?status=held&item=${encodeURIComponent(low.id)}`);
    try {
      const line = page.locator('rf-review-page .progress .muted');
      await expect.poll(() => line.textContent()).toBe(counts(before.budget));
      const shown = page.locator('rf-review-page article.item');
      await expect.poll(() => shown.getAttribute('data-item')).toBe(low.id);
      const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes(encodeURIComponent(low.id)) && r.status() === 200);
      await page.keyboard.press('1');
      await saved;
      // The answered item leaves the count of its own reason, as the collector now counts.
      const after = await f.admin<ReviewQueue>('/v1/admin/review?status=held');
      expect(after.budget.heldFor).toEqual({ threshold: 0, budget: 1, curated: 1 });
      await expect.poll(() => line.textContent()).toBe(counts(after.budget));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
