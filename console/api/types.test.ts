import { describe, expectTypeOf, it } from 'vitest';
import type { ReviewQueue as Answered } from '../../shared/admin-api/review.ts';
import type { ReviewQueue } from './types.ts';

// Checked by the type check (`npm run check`): a copy of the collector's answer here would drift from it.
describe('the admin API as the console reads it', () => {
  it('reads the review queue as the collector declares its answer, budget and all', () => {
    expectTypeOf<ReviewQueue>().toEqualTypeOf<Answered>();
  });
});
