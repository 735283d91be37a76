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
  it('lets the entries used longest ago go past its count or its size, keeping the newest whatever its size', () => {
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

  it('lets the entry used longest ago go, a read counting as a use', () => {
    const cache = new SizedCache<string, string>({ maxEntries: 2, maxSize: 10, sizeOf: (v) => v.length });
    cache.set('often', 'x');
    cache.set('once', 'x');
    expect(cache.get('often')).toBe('x');
    cache.set('new', 'x');
    expect(['often', 'once', 'new'].map((k) => cache.get(k))).toEqual(['x', undefined, 'x']);
  });

  it('keeps its bound when a value cannot be sized, counting that value as the whole bound', () => {
    const cache = new SizedCache<string, string | number[]>({
      maxEntries: 10,
      maxSize: 10,
      // Sized as a typed array is: a plain array has no byteLength, NaN.
      sizeOf: (v) => (typeof v === 'string' ? v.length : Number((v as { byteLength?: number }).byteLength)),
    });
    cache.set('a', 'xxxx');
    cache.set('unsized', [1, 2, 3]);
    expect([cache.get('a'), cache.get('unsized')]).toEqual([undefined, [1, 2, 3]]);
    for (const k of ['b', 'c', 'd']) cache.set(k, 'xxxx');
    // Without a number for the unsized value the total was NaN, and nothing ever went.
    expect(['unsized', 'b', 'c', 'd'].map((k) => cache.get(k) !== undefined)).toEqual([false, false, true, true]);
  });
});
