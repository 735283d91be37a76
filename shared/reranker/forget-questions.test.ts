import { describe, expect, it } from 'vitest';
import { trainingWorld } from '../training/fixture.ts';
import { trainReranker } from '../training/train.ts';
import { questionTermSet, termSetKey, withoutQuestions } from './forget-questions.ts';
import { parseRerankerModel } from './model.ts';
import { rerankWithModel } from './rerank.ts';

const memory = (queries: string[][], judgements: [number, string][]) => ({
  format: 'newer',
  memory: { queries: queries.map((terms) => ({ terms })), judgements: judgements.map(([query, chunkId]) => ({ query, chunkId, relevance: 1 })) },
});

describe('withoutQuestions', () => {
  it('drops the queries whose set of terms is forgotten and the judgements on them, and points the rest at the queries left', () => {
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
    const scrubbed = withoutQuestions(model, new Set([termSetKey(['window', 'refund', 'window'])]));
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
    expect(withoutQuestions(model, new Set([termSetKey(['refund']), termSetKey(['shipping', 'time', 'cost'])]))).toBeNull();
  });

  it("matches the memory query training made of a user's question, and leaves a model that still ranks", () => {
    const { data, heldOut } = trainingWorld();
    const { model } = trainReranker(data, { version: 'v1', now: 1_767_225_600_000 });
    const [first, second] = data.confirmed.filter((c, i, all) => all.findIndex((o) => o.queryKey === c.queryKey) === i);
    const before = model.memory.queries.length;
    const scrubbed = withoutQuestions(model, new Set([questionTermSet(first!.query)]));
    expect(scrubbed!.memory.queries.length).toBe(before - 1);
    expect(scrubbed!.memory.queries.map((q) => termSetKey(q.terms))).not.toContain(questionTermSet(first!.query));
    expect(scrubbed!.memory.queries.map((q) => termSetKey(q.terms))).toContain(questionTermSet(second!.query));
    expect(scrubbed!.memory.judgements.every((j) => j.query < scrubbed!.memory.queries.length)).toBe(true);
    const removed = model.memory.queries.findIndex((q) => termSetKey(q.terms) === questionTermSet(first!.query));
    const judgedOn = model.memory.judgements.filter((j) => j.query === removed).length;
    expect(judgedOn).toBeGreaterThan(0);
    expect(scrubbed!.memory.judgements.length).toBe(model.memory.judgements.length - judgedOn);
    const parsed = parseRerankerModel(JSON.stringify(scrubbed));
    expect(rerankWithModel(parsed, heldOut[0]!.query, heldOut[0]!.candidates)).toHaveLength(heldOut[0]!.candidates.length);
  });
});
