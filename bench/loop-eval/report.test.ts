import { describe, expect, it } from 'vitest';
import { gateWord } from './report.ts';
import type { CycleRow } from './run.ts';

const word = (gate: string) => gateWord({ gate, candidate: null } as CycleRow);

describe("the table's gate column", () => {
  it('says "too few" only when too few examples were the reason the night did not train', () => {
    expect(word('not trained: 12 confirmed examples; training needs at least 30')).toBe('too few');
    expect(word('not trained: one session (s-1) raised 60% of the batch; at most 50% may come from one source')).toBe('not trained');
    // Retraining in Node (--corpus-embeddings) after a week without a new confirmed example.
    expect(word('not trained: no confirmed example is new since the last model')).toBe('nothing new');
    expect(word('nothingNew')).toBe('nothing new');
    expect(word('notDue')).toBe('not due');
  });
});
