import { describe, expect, it } from 'vitest';
import { placeOnList } from './list-place.ts';

const listed = [
  { id: 'b', expectedValue: 3 },
  { id: 'd', expectedValue: 2 },
  { id: 'f', expectedValue: 2 },
];

describe('placeOnList', () => {
  it('places an item on the waiting and held lists by expected value, then id, as the API lists them', () => {
    expect(placeOnList(listed, { id: 'a', expectedValue: 4 }, 'pending')).toBe(0);
    expect(placeOnList(listed, { id: 'e', expectedValue: 2 }, 'held')).toBe(2);
    expect(placeOnList(listed, { id: 'g', expectedValue: 1 }, 'pending')).toBe(3);
  });

  it('places an item answered just now first on the answered list, latest answer first', () => {
    expect(placeOnList(listed, { id: 'g', expectedValue: 1 }, 'answered')).toBe(0);
  });
});
