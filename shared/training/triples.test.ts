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

  it("takes each chunk's text from its own question's candidates, not another answer's version of the chunk", () => {
    const { data } = trainingWorld(2);
    const [first, second] = data.lists;
    // The second question's answer retrieved the first's relevant chunk in a later version.
    const rewritten = { ...first!.candidates.find((c) => c.chunkId === 'rel-0')!, text: 'alpha0 rewritten since' };
    const lists = [first!, { ...second!, candidates: [...second!.candidates, rewritten] }];
    expect(trainingTriples({ ...data, lists }).map((t) => t.positive)).toEqual(trainingTriples(data).map((t) => t.positive));
    expect(trainingTriples({ ...data, lists })[0]!.positive).toMatch(/^alpha0 beta0 gamma0 method/);
  });
});
