import { describe, expect, it } from 'vitest';
import { trainingWorld } from './fixture.ts';
import { trainingTriples } from './triples.ts';

describe('trainingTriples', () => {
  it('pairs each confirmed positive of a query with each of its confirmed negatives, as text', () => {
    const { data } = trainingWorld(3);
    const triples = trainingTriples(data);
    expect(triples).toHaveLength(3);
    expect(triples[0]).toEqual({
      query: 'alpha0 beta0 gamma0 delta0',
      positive: expect.stringMatching(/^alpha0 beta0 gamma0 method/),
      negative: 'alpha0 gamma0 alpha0',
    });
  });

  it('leaves out a query with no confirmed negative, and a chunk whose text is unknown', () => {
    const { data } = trainingWorld(2);
    const onlyPositives = { ...data, confirmed: data.confirmed.filter((c) => c.relevance === 1) };
    expect(trainingTriples(onlyPositives)).toEqual([]);
    const unknown = { ...data, confirmed: [...data.confirmed, { ...data.confirmed[0]!, chunkId: 'gone', relevance: 0 as const }] };
    expect(trainingTriples(unknown)).toHaveLength(2);
  });
});
