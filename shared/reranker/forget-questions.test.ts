import { describe, expect, it } from 'vitest';
import { trainingWorld } from '../training/fixture.ts';
import { trainReranker } from '../training/train.ts';
import { isTermSetHash, questionTermHash, termSetHash, termSetKey, withoutQuestions } from './forget-questions.ts';
import { parseRerankerModel } from './model.ts';
import { rerankWithModel } from './rerank.ts';

const memory = (queries: string[][], judgements: [number, string][]) => ({
  format: 'newer',
  memory: { queries: queries.map((terms) => ({ terms })), judgements: judgements.map(([query, chunkId]) => ({ query, chunkId, relevance: 1 })) },
});

describe('withoutQuestions', () => {
  it('drops the queries whose set of terms is forgotten and the judgements on them, and points the rest at the queries left', async () => {
    const model = memory(
      [
        ['refund', 'window'],
        ['shipping', 'time'],
        ['opened', 'refund'],
      ],
      [
        [0, 'c1'],
        [1, 'c2'],
        [2, 'c3'],
        [0, 'c4'],
        [2, 'c5'],
      ],
    );
    // Order and repeats of terms do not matter: training keeps distinct terms in the question's order.
    const scrubbed = await withoutQuestions(model, new Set([await termSetHash(['window', 'refund', 'window'])]));
    expect(scrubbed).toEqual(
      memory(
        [
          ['shipping', 'time'],
          ['opened', 'refund'],
        ],
        [
          [0, 'c2'],
          [1, 'c3'],
          [1, 'c5'],
        ],
      ),
    );
    // A subset or superset of a question's terms is another question.
    expect(await withoutQuestions(model, new Set([await termSetHash(['refund']), await termSetHash(['shipping', 'time', 'cost'])]))).toBeNull();
    // The set's words themselves match nothing: only their hash is a forgotten question.
    expect(await withoutQuestions(model, new Set([termSetKey(['refund', 'window'])]))).toBeNull();
  });

  it("matches the memory query training made of a user's question, and leaves a model that still ranks", async () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, { version: 'v1', now: 1_767_225_600_000 });
    const [first, second] = data.confirmed.filter((c, i, all) => all.findIndex((o) => o.queryKey === c.queryKey) === i);
    const before = model.memory.queries.length;
    const firstHash = await questionTermHash(first!.query);
    const scrubbed = await withoutQuestions(model, new Set([firstHash]));
    expect(scrubbed!.memory.queries.length).toBe(before - 1);
    const hashesLeft = await Promise.all(scrubbed!.memory.queries.map((q) => termSetHash(q.terms)));
    expect(hashesLeft).not.toContain(firstHash);
    expect(hashesLeft).toContain(await questionTermHash(second!.query));
    expect(scrubbed!.memory.judgements.every((j) => j.query < scrubbed!.memory.queries.length)).toBe(true);
    const removed = (await Promise.all(model.memory.queries.map((q) => termSetHash(q.terms)))).indexOf(firstHash);
    const judgedOn = model.memory.judgements.filter((j) => j.query === removed).length;
    expect(judgedOn).toBeGreaterThan(0);
    expect(scrubbed!.memory.judgements.length).toBe(model.memory.judgements.length - judgedOn);
    const parsed = parseRerankerModel(JSON.stringify(scrubbed));
    expect(rerankWithModel(parsed, heldOut[0]!.query, heldOut[0]!.candidates)).toHaveLength(heldOut[0]!.candidates.length);
  });

  it('keeps a question as a hash of its terms, not its words', async () => {
    const hash = await questionTermHash('What is the refund window for opened items?');
    expect(isTermSetHash(hash)).toBe(true);
    expect(hash).toBe(await questionTermHash('opened items: REFUND window?'));
    expect(isTermSetHash(termSetKey(['refund', 'window']))).toBe(false);
  });
});
