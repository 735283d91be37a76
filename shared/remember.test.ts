import { describe, expect, it } from 'vitest';
import { remember, SizedCache } from './remember.ts';

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

describe('SizedCache', () => {
  it('lets the entries set longest ago go past its count or its size, keeping the newest whatever its size', () => {
    const cache = new SizedCache<string, string>({ maxEntries: 3, maxSize: 10, sizeOf: (v) => v.length });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, 'xx');
    expect(['a', 'b', 'c', 'd'].map((k) => cache.get(k))).toEqual([undefined, 'xx', 'xx', 'xx']);
    cache.set('e', 'xxxxxxx'); // 2 + 2 + 7 > 10: b and c go
    expect(['b', 'c', 'd', 'e'].map((k) => cache.get(k) !== undefined)).toEqual([false, false, true, true]);
    cache.set('f', 'x'.repeat(50));
    expect([cache.get('e'), cache.get('f')?.length]).toEqual([undefined, 50]);
    // Set again, an entry's old size leaves with it.
    cache.clear();
    for (let i = 0; i < 5; i++) cache.set('same', 'xxxxx');
    cache.set('other', 'xxxxx');
    expect(cache.get('same')).toBe('xxxxx');
  });
});
