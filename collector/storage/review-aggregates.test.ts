import { describe, expect, it } from 'vitest';
import { addTrace, type Contribution, emptyItem, type ItemState, itemColumns, STRONGEST_KEPT, subtractTrace } from './review-aggregates.ts';

/** A small seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const contribution = (weight: number, rank = 1): Contribution => ({
  itemId: 'item',
  candidate: weight > 0.5 ? 'positive' : 'negative',
  weight,
  evidence: [`weight ${weight}`],
  rank,
  score: weight,
  guess: 'unclear',
  guessWhy: 'why',
});

/** The item's traces, strongest first, as a full recomputation would order them. */
const ranked = (traces: ReadonlyMap<string, Contribution>) =>
  [...traces].sort(([a, x], [b, y]) => y.weight - x.weight || (a < b ? -1 : a > b ? 1 : 0)).map(([id]) => id);

describe('an item kept in step with its traces', () => {
  it('lists exactly the strongest traces there are, and sums exactly, through traces added, mined again and taken out', () => {
    const next = random(7);
    const item = emptyItem('item');
    const traces = new Map<string, Contribution>();
    for (let step = 0; step < 2_000; step++) {
      const id = `t-${Math.floor(next() * 60)}`;
      const had = traces.get(id);
      if (had) subtractTrace(item, id, had);
      // Mostly mined again with other weights (weights repeat, so ties are broken by trace id), sometimes gone.
      if (next() < 0.8) {
        const c = contribution(Math.round(next() * 20) / 20, 1 + Math.floor(next() * 3));
        addTrace(item, id, c);
        traces.set(id, c);
      } else traces.delete(id);

      const listed = item.strongest.map((t) => t.traceId);
      expect(listed.length).toBeLessThanOrEqual(STRONGEST_KEPT);
      expect(listed).toEqual(ranked(traces).slice(0, listed.length));
      if (item.cut === null) expect(listed.length).toBe(traces.size);
      expect(item.traceCount).toBe(traces.size);
      const sum = [...traces.values()].reduce((n, c) => n + Math.round(c.weight * 1_000_000), 0);
      expect(item.weightTotal).toBe(sum);
      expect(Object.values(item.ranks).reduce((a, b) => a + b, 0)).toBe(traces.size);
    }
  });

  it('is left as it was by a trace mined again with the same contribution', () => {
    const item: ItemState = emptyItem('item');
    const traces = Array.from({ length: STRONGEST_KEPT + 5 }, (_, i) => [`t-${i}`, contribution((i % 7) / 10 + 0.05, 1 + (i % 2))] as const);
    for (const [id, c] of traces) addTrace(item, id, c);
    const before = itemColumns(item);
    for (const [id, c] of traces) {
      subtractTrace(item, id, c);
      addTrace(item, id, c);
      expect(itemColumns(item)).toEqual(before);
    }
    expect(before.n).toBe(traces.length);
    expect(before.strongest).toHaveLength(STRONGEST_KEPT);
    expect(before.strongest.filter((t) => t.evidence)).toHaveLength(8);
  });
});
