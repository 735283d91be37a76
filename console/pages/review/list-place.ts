import type { ReviewItem, ReviewStatus } from '../../api/types.ts';

type Ranked = Pick<ReviewItem, 'id' | 'expectedValue'>;

/** Whether `a` comes before `b` on the waiting and held lists, as the API orders them: highest expected value first, then by id. */
const ranksBefore = (a: Ranked, b: Ranked) => a.expectedValue > b.expectedValue || (a.expectedValue === b.expectedValue && a.id < b.id);

/**
 * Where the server lists an item among the items loaded of a list of `status`: the answered list
 * has the latest answer first, so an item answered just now is its first; the others rank by
 * expected value. `items.length` when it comes after them all.
 */
export function placeOnList(items: readonly Ranked[], item: Ranked, status: ReviewStatus): number {
  if (status === 'answered') return 0;
  const at = items.findIndex((i) => ranksBefore(item, i));
  return at < 0 ? items.length : at;
}
