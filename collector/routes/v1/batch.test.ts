import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../../../shared/schema/batch-result.ts';
import { rejectedItem } from './batch.ts';

describe('a rejected item of a batch', () => {
  it('names every field at fault, the first as field and reason, and one at least: the types refuse none', () => {
    const fields = [
      { field: 'events[2].signalType', message: 'Invalid type' },
      { field: 'events[2].colour', message: 'is not a field this takes' },
    ] as const;
    expect(rejectedItem(2, fields)).toEqual({ index: 2, status: 'rejected', field: 'events[2].signalType', reason: 'Invalid type', fields });
    // Never called: `npm run check`, which `npm test` runs first, fails if any of these compiles.
    const refused = (): ItemResult[] => [
      // @ts-expect-error one field at least
      rejectedItem(2, []),
      // @ts-expect-error nor a result listing none
      { index: 2, status: 'rejected', field: 'events[2]', reason: 'is not valid', fields: [] },
    ];
    expect(refused).toBeTypeOf('function');
  });
});
