import { describe, expect, it } from 'vitest';
import { remember } from './remember.ts';

describe('remember', () => {
  it('keeps the newest `max` entries, a key set again counting as new', () => {
    const map = new Map<string, number>();
    remember(map, 'a', 1, 2);
    remember(map, 'b', 2, 2);
    remember(map, 'a', 3, 2); // used again: now the newest
    remember(map, 'c', 4, 2); // forgets b, used longest ago
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
